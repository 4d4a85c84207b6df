"""Shared helpers of the browser tests and the page-timing benchmark: a real `ionflow serve`
on a free loopback port with a temporary data directory, and Debian's headless Chromium driven
by chromium-driver through python3-selenium.

Chromium's flags keep it off the network (this machine has none but loopback): no background
networking, component updates, sync or QUIC, a new empty profile. Every wait is bounded.
"""
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

SKIP = 77  # ctest SKIP_RETURN_CODE

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`ionflow serve` on 127.0.0.1:<free port>; stop() (or the context's end) kills it."""

    def __init__(self, ionflow, data_roots, token="", extra=(), data_dir=None):
        """data_dir: an existing data directory to serve (kept); default a new temporary one."""
        self.keep = data_dir is not None
        self.dir = os.path.dirname(os.path.abspath(data_dir)) if data_dir else tempfile.mkdtemp(prefix="ionflow_web_")
        self.port = free_port()
        self.token = token
        self.url = "http://127.0.0.1:%d" % self.port
        args = [ionflow, "serve", "--data-dir", os.path.abspath(data_dir) if data_dir else os.path.join(self.dir, "data"), "--listen",
                "127.0.0.1:%d" % self.port, "--log-level", "warn"]
        for r in data_roots:
            args += ["--data-root", r]
        args += list(extra)
        env = dict(os.environ)
        if token:
            env["IONFLOW_API_TOKEN"] = token
        self.log = open(os.path.join(self.dir, "serve-%d.log" % self.port), "w")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                self.get("/v1/health")
                return
            except (urllib.error.URLError, ConnectionError):
                if self.proc.poll() is not None:
                    raise RuntimeError("ionflow serve exited: " + open(self.log.name).read())
                time.sleep(0.1)
        raise RuntimeError("ionflow serve did not answer within 30 s")

    def request(self, path, method="GET", body=None, raw=False):
        req = urllib.request.Request(self.url + path, method=method, data=body)
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=60) as res:
                data = res.read()
                return res.status, data if raw else json.loads(data)
        except urllib.error.HTTPError as e:
            data = e.read()
            return e.code, data if raw else json.loads(data)

    def get(self, path, raw=False):
        status, body = self.request(path, raw=raw)
        if status != 200:
            raise RuntimeError("GET %s: HTTP %d %s" % (path, status, body))
        return body

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.log.close()
        if not self.keep:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def browser_missing():
    """The reason the browser tests cannot run here, or None."""
    for f in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(f):
            return f + " is not installed (scripts/install-deps.sh installs chromium and chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium is not installed (scripts/install-deps.sh installs it)"
    return None


def start_browser(width=1500, height=1000):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    profile = tempfile.mkdtemp(prefix="ionflow_chromium_")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--hide-scrollbars",
                 "--window-size=%d,%d" % (width, height), "--user-data-dir=" + profile):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver._ionflow_profile = profile
    return driver


def stop_browser(driver):
    try:
        driver.quit()
    finally:
        shutil.rmtree(driver._ionflow_profile, ignore_errors=True)


def wait_for(condition, timeout, what):
    """Polls condition() until it returns a true value (returned) or `timeout` seconds pass."""
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception as e:  # an element not there yet, a stale one
            last = e
        time.sleep(0.1)
    raise AssertionError("timed out after %d s waiting for %s (%s)" % (timeout, what, last))


def full_page_screenshot(driver, path, element=None):
    """A screenshot of the whole page, or of one element, with the window grown to the
    document's height first (so nothing is cut at the window's edge)."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    width = driver.get_window_size()["width"]
    driver.set_window_size(width, min(max(height + 140, 800), 8000))
    driver.execute_script("window.scrollTo(0, 0)")
    time.sleep(0.4)
    if element is None:
        driver.save_screenshot(path)
    else:
        element.screenshot(path)
    driver.set_window_size(width, 1000)
