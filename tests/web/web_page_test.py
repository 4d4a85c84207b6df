#!/usr/bin/python3
"""The web page in a real browser (Debian's headless Chromium, chromium-driver, python3-selenium):
submit the BSA demo through the form and watch it reach done, with the server's API token asked
for once; the job page shows results.json's PSMs at 1% FDR, draws every plot from non-empty
data, sorts and filters the PSM table, and the spectrum view of the top PSM labels as many ions
as results.tsv's matched_peaks; a bad field shows the API's message beside it. Screenshots of
each page go to --screenshots for a person to look at.

Exit codes: 0 passed, 1 failed, 77 skipped (no chromium / chromium-driver / selenium, or no
openms-doc data: run scripts/fetch-data.sh).
Usage: web_page_test.py --ionflow build/service/ionflow --data data/openms-doc --screenshots DIR
"""
import argparse
import csv
import io
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import web_support as ws  # noqa: E402

EXAMPLES = "usr/share/doc/openms/examples"
SPECTRA = EXAMPLES + "/BSA/BSA1.mzML"
FASTA = EXAMPLES + "/TOPPAS/data/BSA_Identification/18Protein_SoCe_Tr_detergents_trace_target_decoy.fasta"
TOKEN = "web-test-token"
UPLOAD_LIMIT = 300000  # serve --max-body-bytes here


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ionflow", required=True)
    ap.add_argument("--data", required=True, help="the openms-doc directory (scripts/fetch-data.sh)")
    ap.add_argument("--screenshots", required=True)
    args = ap.parse_args()
    reason = ws.browser_missing()
    if reason:
        print("SKIP: " + reason)
        return ws.SKIP
    data = os.path.abspath(args.data)
    if not os.path.exists(os.path.join(data, SPECTRA)):
        print("SKIP: %s not found: run scripts/fetch-data.sh" % os.path.join(data, SPECTRA))
        return ws.SKIP
    os.makedirs(args.screenshots, exist_ok=True)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    # A request-body limit below the page's 512 KiB upload pieces: the page sends pieces of the
    # limit it reads from /v1/health (the upload below: 17 pieces).
    with ws.Server(args.ionflow, [data], token=TOKEN, extra=["--max-body-bytes", str(UPLOAD_LIMIT)]) as server:
        driver = ws.start_browser()
        try:
            B = lambda css: driver.find_element(By.CSS_SELECTOR, css)  # noqa: E731
            All = lambda css: driver.find_elements(By.CSS_SELECTOR, css)  # noqa: E731
            shot = lambda name: ws.full_page_screenshot(driver, os.path.join(args.screenshots, name))  # noqa: E731

            # --- the jobs page asks for the token once ---------------------------------------
            driver.get(server.url + "/")
            ws.wait_for(lambda: B("#token-dialog").is_displayed(), 20, "the token dialog")
            B("#token-input").send_keys(TOKEN)
            B("#token-ok").click()
            ws.wait_for(lambda: "token required" in B("#health").text, 20, "the health line after the token")
            ws.wait_for(lambda: B("#scorers").text.strip() != "", 20, "the scorer pool")
            pool = B("#scorers").text
            assert "local scorers" in pool and "backlog" in pool, pool

            # --- fill the form with the BSA demo, through the file browser and the Unimod search --
            B("#browse-spectra").click()
            ws.wait_for(lambda: B("#files-dialog").is_displayed(), 10, "the file browser")
            ws.wait_for(lambda: len(All("#files-list .entry")) >= 1, 10, "the data roots")
            path = B("#files-path")
            path.clear()
            path.send_keys(os.path.join(data, EXAMPLES, "BSA") + Keys.ENTER)
            entry = ws.wait_for(lambda: [e for e in All("#files-list .entry") if e.text.startswith("BSA1.mzML")], 10,
                                "BSA1.mzML in the file browser")[0]
            entry.click()
            ws.wait_for(lambda: "BSA1.mzML" in B("#spectra-list").text, 10, "the spectra chip")
            B("#fasta").send_keys(os.path.join(data, FASTA))
            B("#generate-decoys").click()  # the FASTA has its decoys (_rev)
            tag = B("#decoy-tag")
            tag.clear()
            tag.send_keys("_rev")
            # A misspelt variable modification typed as is (Enter with no suggestion open).
            B("#variable-mods .chip button").click()  # drop the default Oxidation (M)
            variable = B("#variable-mods input")
            variable.send_keys("Oxidaton (M)")
            time.sleep(0.5)  # let the suggestions arrive, then close them: Enter takes the text
            variable.send_keys(Keys.ESCAPE)
            variable.send_keys(Keys.ENTER)
            ws.wait_for(lambda: "Oxidaton (M)" in B("#variable-mods").text, 10, "the misspelt chip")
            message = json.loads(B("#job-json").get_attribute("value"))
            status, api_answer = server.request("/v1/jobs", "POST", json.dumps(message).encode())
            assert status == 400, (status, api_answer)
            B("#submit").click()
            err = ws.wait_for(lambda: [e for e in All("[data-key='variable_modifications'] .field-error") if e.is_displayed()], 20,
                              "the error beside the variable modifications")[0]
            assert err.text == api_answer["error"], (err.text, api_answer)
            assert api_answer["field"].startswith("variable_modifications"), api_answer
            print("bad field: %r shown beside variable modifications" % err.text)
            shot("jobs-page-error.png")
            # Fix it with search-as-you-type: the suggestion list offers Oxidation (M).
            B("#variable-mods .chip button").click()
            variable = B("#variable-mods input")
            variable.send_keys("Oxidation")
            ws.wait_for(lambda: any(d.text.startswith("Oxidation (M)") for d in All("#variable-mods .suggest div")), 20,
                        "Oxidation (M) among the suggestions")
            [d for d in All("#variable-mods .suggest div") if d.text.startswith("Oxidation (M)")][0].click()
            ws.wait_for(lambda: "Oxidation (M)" in B("#variable-mods").text, 10, "the Oxidation (M) chip")
            message = json.loads(B("#job-json").get_attribute("value"))
            assert message["variable_modifications"] == ["Oxidation (M)"], message
            assert message["fixed_modifications"] == ["Carbamidomethyl (C)"], message
            assert message["mzml_paths"] == [os.path.join(data, SPECTRA)], message
            B("#submit").click()
            link = ws.wait_for(lambda: B("#submitted-job"), 20, "the submitted job's link")
            job_id = link.text
            print("submitted job", job_id)

            # --- the jobs page watches it run and lists it as done ---------------------------------
            row = "#jobs tr[data-id='%s']" % job_id
            seen = set()

            def done():
                state = B(row).get_attribute("data-state")
                seen.add(state)
                return state == "done" and B(row + " td.psms").text.strip() != ""
            # A screenshot while it runs, if the 1 s poll catches it running (BSA1 takes ~2 s).
            if ws.wait_for(lambda: B(row).get_attribute("data-state") in ("running", "done") and
                           B(row).get_attribute("data-state"), 120, "job %s started" % job_id) == "running":
                shot("jobs-page-running.png")
            ws.wait_for(done, 600, "job %s done on the jobs page" % job_id)
            print("states seen on the jobs page:", sorted(seen))
            assert "done" in seen
            shot("jobs-page.png")
            results = server.get("/v1/jobs/%s/results.json" % job_id)
            expected = results["summary"]["psms_at_1pct_fdr"]
            assert B(row + " td.psms").text.replace(",", "") == str(expected), B(row + " td.psms").text

            # --- the job page ---------------------------------------------------------------------
            t0 = time.time()
            driver.get(server.url + "/jobs/" + job_id)
            ws.wait_for(lambda: driver.execute_script("return document.body.dataset.ready") == "true", 60, "the job page")
            print("job page usable after %.2f s" % (time.time() - t0))
            shown = B("#psms-at-1pct").text.replace(",", "")
            assert shown == str(expected), (shown, expected)
            # Protein groups beside the accessions they hold, each as results.json has it.
            for cid, key in (("protein-groups-at-1pct", "protein_groups_at_1pct_fdr"),
                             ("proteins-at-1pct", "proteins_at_1pct_fdr")):
                assert B("#" + cid).text.replace(",", "") == str(results["summary"][key]), (cid, B("#" + cid).text)
            assert B("#plots-panel").get_attribute("data-accepted") == str(expected)
            for canvas in ("plot-score", "plot-q", "plot-ppm", "plot-ppm-rt", "plot-charge"):
                points = int(B("#" + canvas).get_attribute("data-points"))
                assert points > 0, canvas
            assert len(All("#timeline-svg rect.busy")) >= 5, "timeline bars"
            # Default filter (targets, rank 1, q <= 0.01): the table holds exactly the accepted PSMs.
            assert B("#psm-count").get_attribute("data-matched") == str(expected), B("#psm-count").text
            print("job page: %s PSMs at 1%% FDR, as results.json" % shown)
            shot("job-page.png")

            # Sort by hyperscore, descending (two clicks on its header).
            def column_values(name):
                heads = [h.get_attribute("data-col") for h in All("#psms thead th")]
                k = heads.index(name)
                return [r.find_elements(By.TAG_NAME, "td")[k].text for r in All("#psms tbody tr")]
            header = lambda: [h for h in All("#psms thead th") if h.get_attribute("data-col") == "hyperscore"][0]  # noqa: E731
            header().click()
            ws.wait_for(lambda: "sorted-asc" in header().get_attribute("class"), 10, "ascending sort")
            header().click()
            ws.wait_for(lambda: "sorted-desc" in header().get_attribute("class"), 10, "descending sort")
            scores = [float(x) for x in column_values("hyperscore")]
            assert scores == sorted(scores, reverse=True) and len(scores) > 1, scores
            top_psm = All("#psms tbody tr")[0].get_attribute("data-psm")
            top_peptide = column_values("peptide")[0]
            # Filter by the top peptide's text: every row shows it, fewer rows match.
            stem = top_peptide.split("[")[0][:6]
            B("#psm-filter").send_keys(stem)
            ws.wait_for(lambda: int(B("#psm-count").get_attribute("data-matched")) < expected, 10, "the filter")
            peptides = column_values("peptide")
            assert peptides and all(stem.lower() in p.lower() or stem.lower() in r.lower()
                                    for p, r in zip(peptides, column_values("proteins"))), peptides
            print("filter %r: %s of %d PSMs" % (stem, B("#psm-count").get_attribute("data-matched"), expected))

            # --- the spectrum view of the top PSM ----------------------------------------------------
            [r for r in All("#psms tbody tr") if r.get_attribute("data-psm") == top_psm][0].click()
            ws.wait_for(lambda: B("#spectrum-panel").get_attribute("data-state") == "ready", 60, "the spectrum view")
            tsv = server.get("/v1/jobs/%s/results" % job_id, raw=True).decode()
            rows = {r["psm_id"]: r for r in csv.DictReader(io.StringIO(tsv), delimiter="\t")}
            labelled = len(All("#spectrum-svg text.ion-label"))
            assert labelled == int(rows[top_psm]["matched_peaks"]), (labelled, rows[top_psm]["matched_peaks"])
            assert len(All("#ion-table td.matched")) == labelled
            assert len(All("#error-svg circle.error-point")) == labelled
            print("spectrum view of PSM %s (%s): %d ions labelled = matched_peaks" % (top_psm, rows[top_psm]["peptide"], labelled))
            ws.full_page_screenshot(driver, os.path.join(args.screenshots, "job-page-spectrum.png"))
            for css, name in (("#spectrum-panel", "spectrum-view.png"), ("#timeline-panel", "timeline.png"),
                              ("#plots-panel", "plots.png"), ("#psm-panel", "psm-table.png")):
                ws.full_page_screenshot(driver, os.path.join(args.screenshots, name), B(css))
            # --- an upload through the page: a 4.9 MB FASTA in 17 pieces of the server's 300,000
            # byte limit, each giving the file's size and, after the first, the upload's id: the
            # pieces are staged out of sight, so that after each piece before the last the
            # uploads directory's listing does not show the file, and the last one answers
            # "complete"; the form then names the copy, byte for byte the file --------------
            driver.get(server.url + "/")
            ws.wait_for(lambda: B("#scorers").text.strip() != "", 20, "the jobs page again")
            source = os.path.join(data, os.path.dirname(FASTA), "18Protein_SoCe_Tr_detergents_trace.fasta")
            name = os.path.basename(source)
            uploads = os.path.join(server.dir, "data", "uploads")
            # The page's own fetch, watched: after each piece's answer, the listing of the uploads
            # directory (with the page's token) says whether the file is visible.
            driver.execute_script("""
                const uploads = arguments[0], name = arguments[1], original = window.fetch;
                window.ionflowPieces = [];
                window.fetch = async (path, options) => {
                  const res = await original(path, options);
                  if (options && options.method === "PUT" && String(path).startsWith("/v1/uploads/")) {
                    const answer = await res.clone().json();
                    const listing = await (await original("/v1/files?path=" + encodeURIComponent(uploads),
                                                          { headers: options.headers })).json();
                    window.ionflowPieces.push({ url: String(path), status: res.status, answer,
                                                listed: listing.entries.some((e) => e.name === name) });
                  }
                  return res;
                };""", uploads, name)
            driver.execute_script("document.getElementById('upload-fasta').classList.remove('hidden')")
            B("#upload-fasta").send_keys(source)
            ws.wait_for(lambda: B("#fasta").get_attribute("value").endswith("/uploads/" + name),
                        60, "the uploaded FASTA in the form")
            copy = B("#fasta").get_attribute("value")
            with open(source, "rb") as a, open(copy, "rb") as b:
                assert a.read() == b.read(), copy
            size = os.path.getsize(source)
            pieces = driver.execute_script("return window.ionflowPieces")
            assert len(pieces) == (size + UPLOAD_LIMIT - 1) // UPLOAD_LIMIT == 17, len(pieces)
            for i, piece in enumerate(pieces):
                last = i == len(pieces) - 1
                assert piece["status"] == 200, piece
                assert "&size=%d" % size in piece["url"], piece["url"]
                assert piece["answer"]["size"] == size, piece
                assert piece["answer"]["complete"] == last, piece
                assert piece["answer"]["bytes"] == min((i + 1) * UPLOAD_LIMIT, size), piece
                assert piece["listed"] == last, (i, piece)
            assert sorted(os.listdir(uploads)) == [name], os.listdir(uploads)  # no staged file left
            print("uploaded %s through the page: %d bytes in %d pieces, listed only once complete, identical"
                  % (name, size, len(pieces)))
            # The 401 before the token and the 400 of the bad field are logged by Chromium; any
            # other error (a script error, a refused resource) fails the test.
            logs = [l for l in driver.get_log("browser")
                    if l["level"] == "SEVERE" and "Failed to load resource" not in l["message"]]
            assert not logs, logs
        finally:
            ws.stop_browser(driver)
    print("screenshots in", args.screenshots)
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
