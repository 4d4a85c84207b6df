#!/usr/bin/python3
"""How long each page of the web page takes to become usable, measured in a real browser
(Debian's headless Chromium through chromium-driver and python3-selenium) on a real job.

Starts its own `ionflow serve`, runs JOB.json (give a large one, e.g. the 100k scale set:
perf/README "Scale set"), then times, --repeat times each (median and range printed):
  jobs page   navigation -> the job list drawn with the job's PSMs at 1% FDR
  job page    navigation -> summary, timeline, the five plots and the first PSM page drawn
              (body[data-ready]); the first visit after the server started also reads
              results.tsv into the server's cache ("cold"), later ones do not ("warm")
  sort        a click on the hyperscore header -> the re-sorted page drawn
  filter      typing a peptide stem -> the filtered page drawn (includes the page's 250 ms
              typing delay)
  next page   a click on "next" -> the next 50 rows drawn
  spectrum    a click on a PSM -> its spectrum view drawn (reads the spectrum from the input)
Usage: perf/web_page_timing.py --ionflow build/service/ionflow --data-root data/scale \
         --job perf/scale/web_job_100k.json [--repeat 3]
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "web"))
import web_support as ws  # noqa: E402


def timed(action, done, timeout=120):
    t0 = time.perf_counter()
    action()
    deadline = t0 + timeout
    while time.perf_counter() < deadline:
        try:
            if done():
                return time.perf_counter() - t0
        except Exception:
            pass
        time.sleep(0.005)
    raise AssertionError("timed out")


def summary(name, xs):
    print("%-34s median %6.3f s  (%s)" % (name, statistics.median(xs), ", ".join("%.3f" % x for x in xs)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ionflow", required=True)
    ap.add_argument("--data-root", required=True)
    ap.add_argument("--job", default="", help="the job message to run (unless --job-id)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--data-dir", help="serve this data directory (kept) instead of a new one")
    ap.add_argument("--job-id", help="time this done job of --data-dir instead of running --job")
    args = ap.parse_args()
    reason = ws.browser_missing()
    if reason:
        print("SKIP: " + reason)
        return ws.SKIP
    from selenium.webdriver.common.by import By
    job = open(args.job).read() if args.job else ""
    with ws.Server(args.ionflow, [os.path.abspath(args.data_root)], data_dir=args.data_dir) as server:
        t0 = time.time()
        if args.job_id:
            job_id = args.job_id
        else:
            status, answer = server.request("/v1/jobs", "POST", job.encode())
            assert status == 201, answer
            job_id = answer["id"]
        while True:
            j = server.get("/v1/jobs/" + job_id)
            if j["state"] in ("done", "failed", "cancelled"):
                break
            time.sleep(1)
        assert j["state"] == "done", j
        s = j["summary"]
        print("job %s: %d queries, %d PSMs, %d at 1%% FDR, searched in %.1f s (wall %.1f s)" %
              (job_id, s["queries"], s["psms"], s["psms_at_1pct_fdr"], time.time() - t0, s["wall_seconds"]))
        driver = ws.start_browser()
        B = lambda css: driver.find_element(By.CSS_SELECTOR, css)  # noqa: E731
        All = lambda css: driver.find_elements(By.CSS_SELECTOR, css)  # noqa: E731
        times = {k: [] for k in ("jobs page", "job page (cold cache)", "job page (warm)", "sort by hyperscore",
                                 "filter by peptide", "next page", "spectrum view")}
        try:
            for i in range(args.repeat):
                times["jobs page"].append(timed(lambda: driver.get(server.url + "/"),
                                                lambda: B("#jobs tr[data-id='%s'] td.psms" % job_id).text.strip() != ""))
                key = "job page (cold cache)" if i == 0 else "job page (warm)"
                times[key].append(timed(lambda: driver.get(server.url + "/jobs/" + job_id),
                                        lambda: driver.execute_script("return document.body.dataset.ready") == "true"))
                header = lambda: [h for h in All("#psms thead th") if h.get_attribute("data-col") == "hyperscore"][0]  # noqa: E731
                times["sort by hyperscore"].append(timed(lambda: header().click(),
                                                         lambda: "sorted-asc" in header().get_attribute("class")))
                first = All("#psms tbody tr")[0].find_elements(By.TAG_NAME, "td")[3].text
                stem = first.split("[")[0][:5]
                before = B("#psm-count").text
                times["filter by peptide"].append(timed(lambda: B("#psm-filter").send_keys(stem),
                                                        lambda: B("#psm-count").text != before))
                B("#psm-filter").clear()
                B("#psm-filter").send_keys(" ")
                B("#psm-filter").clear()
                time.sleep(0.6)
                before = B("#psm-count").text
                times["next page"].append(timed(lambda: B("#psm-next").click(), lambda: B("#psm-count").text != before))
                row = All("#psms tbody tr")[7]
                times["spectrum view"].append(timed(lambda: row.click(),
                                                    lambda: B("#spectrum-panel").get_attribute("data-state") == "ready"))
        finally:
            ws.stop_browser(driver)
        for k, xs in times.items():
            if xs:
                summary(k, xs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
