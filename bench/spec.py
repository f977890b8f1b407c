"""`make bench`'s figures for serving an OpenAPI document (`understudy --spec`), against issue 36's bars.

- Loading: OpenAI's (YAML and JSON twins) and Asana's 3 MB documents, Spotify's, and DigitalOcean's 2,907-file spec,
  each loaded by `understudy spec check` (the median of three runs of the load itself, as the command reports it,
  and its peak RSS); a document of ten times OpenAI's operations (its paths repeated under ten prefixes) for how
  load time grows; and launch → first answer of a `--spec` server on OpenAI's document.
- Serving: a document route answering its example (`GET /pets/mine`) against `GET /products/1` of a DummyJSON
  server, in the same run, interleaved rounds; and the server's CPU per request for what the mock does past the
  fast path: an example, generated data, and a validated JSON body.
- Contract checks: the cost per proxied exchange of holding an upstream to a document (`--upstream` with `--spec`),
  next to the proxy without it.

Used by bench.py (the full run and `--spec-only`), which hands over its helpers (`common`: log, free_port,
http_status, stop_process, wrk, Server); reads ../shared/conformance/openapi.
"""
import copy
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time

LOAD_BAR_MS = {"openai-openai-openapi/openapi.yaml": 300, "openai-openai-openapi/openapi.json": 300,
               "Asana-openapi/defs/asana_oas.yaml": 300, "digitalocean-openapi/specification/DigitalOcean-public.v2.yaml": 1000,
               "sonallux-spotify-web-api/fixed-spotify-open-api.yml": 300}


def load_figures(common, binary, openapi, runs):
    """Each document's load time (ms, median) and the command's peak RSS (MiB)."""
    results = {}
    for name in LOAD_BAR_MS:
        path = os.path.join(openapi, name)
        times, peaks = [], []
        for _ in range(runs):
            started = time.perf_counter()
            process = subprocess.Popen([binary, "spec", "check", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            _, status, usage = os.wait4(process.pid, 0)
            wall = (time.perf_counter() - started) * 1e3
            output = process.stdout.read()
            if status != 0:
                raise RuntimeError(f"spec check {name} failed: {output[-500:]}")
            loaded = [line for line in output.splitlines() if "loaded in" in line][-1]
            times.append(float(loaded.rsplit("loaded in ", 1)[1].split(" ms")[0]))
            peaks.append(usage.ru_maxrss / 1024)
            common.log(f"  {name}: loaded in {times[-1]:.0f} ms ({wall:.0f} ms with the process), {peaks[-1]:.0f} MiB peak")
        results[name] = {"ms": statistics.median(times), "rss": statistics.median(peaks)}
    return results


def tenfold(openapi, directory):
    """OpenAI's JSON document with its paths ten times over, under /copy0 … /copy9 (operation ids suffixed)."""
    with open(os.path.join(openapi, "openai-openai-openapi/openapi.json")) as source:
        document = json.load(source)
    paths = {}
    for copy_index in range(10):
        for template, item in document["paths"].items():
            duplicate = copy.deepcopy(item)
            for operation in duplicate.values():
                if isinstance(operation, dict) and "operationId" in operation:
                    operation["operationId"] += f"_copy{copy_index}"
            paths[f"/copy{copy_index}{template}"] = duplicate
    document["paths"] = paths
    path = os.path.join(directory, "openai-tenfold.json")
    with open(path, "w") as out:
        json.dump(document, out)
    return path


def check_ms(binary, path, runs):
    times = []
    for _ in range(runs):
        output = subprocess.run([binary, "spec", "check", path], capture_output=True, text=True, check=True).stdout
        times.append(float([line for line in output.splitlines() if "loaded in" in line][-1].rsplit("loaded in ", 1)[1].split(" ms")[0]))
    return statistics.median(times)


def first_answer_ms(common, binary, path, target, runs):
    """Launch of `understudy --spec PATH` to the first HTTP answer of `target` (any status: OpenAI's routes need a
    key, and a 401 is an answer from the document)."""
    times = []
    for _ in range(runs):
        port = common.free_port()
        started = time.perf_counter()
        process = subprocess.Popen([binary, "--port", str(port), "--quiet", "--spec", path],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            while time.perf_counter() - started < 30:
                if common.http_status(port, target, timeout=5) not in (0, None):
                    times.append((time.perf_counter() - started) * 1e3)
                    break
                if process.poll() is not None:
                    raise RuntimeError(f"understudy --spec {path} exited with {process.returncode}")
                time.sleep(0.0005)
        finally:
            common.stop_process(process)
    return statistics.median(times)


PETS = {
    "openapi": "3.1.0", "info": {"title": "Bench pets", "version": "1"},
    "components": {"schemas": {"Pet": {"type": "object", "required": ["id", "name"], "properties": {
        "id": {"type": "integer", "readOnly": True}, "name": {"type": "string", "minLength": 1},
        "tag": {"type": "string", "pattern": "^[a-z]{3,8}$"}, "born": {"type": "string", "format": "date-time"}}}}},
    "paths": {
        "/pets/mine": {"get": {"operationId": "mine", "responses": {"200": {"description": "mine", "content": {
            "application/json": {"example": {"id": 1, "name": "Rex", "tag": "dog", "born": "2020-01-01T00:00:00Z"}}}}}}},
        "/pets/generated": {"get": {"operationId": "generated", "responses": {"200": {"description": "a list", "content": {
            "application/json": {"schema": {"type": "array", "minItems": 3, "maxItems": 3,
                                            "items": {"$ref": "#/components/schemas/Pet"}}}}}}}},
        "/pets": {"post": {"operationId": "create", "requestBody": {"required": True, "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
            "responses": {"201": {"description": "created", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Pet"}}}}}}},
    },
}
PET_BODY = json.dumps({"name": "Fido", "tag": "dog", "born": "2021-05-05T10:00:00Z"})


def serving_figures(common, binary, directory, rounds, seconds):
    """A document's example route against /products/1 (req/s, interleaved rounds, c32), and the server's CPU per
    request for an example past the fast path, generated data and a validated body."""
    path = os.path.join(directory, "pets.json")
    with open(path, "w") as out:
        json.dump(PETS, out)
    lua = os.path.join(directory, "post-pet.lua")
    with open(lua, "w") as out:
        out.write('wrk.method = "POST"\nwrk.path = "/pets"\nwrk.body = ' + json.dumps(PET_BODY)
                  + '\nwrk.headers["Content-Type"] = "application/json"\n')
    spec = common.Server("understudy --spec", [binary, "--port", "0", "--quiet", "--stateless", "--spec", path])
    dummy = common.Server("understudy", [binary, "--port", "0", "--quiet"])
    try:
        for server, target in ((spec, "/pets/mine"), (dummy, "/products/1")):
            common.wrk(server, target, 32, 1)  # warm: the first GET cans the reply
        ratios, spec_rps, dummy_rps = [], [], []
        for index in range(rounds):
            order = [(spec, "/pets/mine"), (dummy, "/products/1")]
            if index % 2:
                order.reverse()
            cells = {server: common.wrk(server, target, 32, seconds)["rps"] for server, target in order}
            spec_rps.append(cells[spec])
            dummy_rps.append(cells[dummy])
            ratios.append(cells[spec] / cells[dummy] if cells[dummy] else 0)
        costs = {
            "example": common.wrk(spec, "/pets/mine", 8, seconds, headers={"Accept": "application/json"}),
            "generated": common.wrk(spec, "/pets/generated", 8, seconds, headers={"Prefer": "dynamic=true, seed=7"}),
            "validated": common.wrk_script(spec, lua, 8, seconds),
        }
        return {"ratio": statistics.median(ratios), "spec_rps": statistics.median(spec_rps),
                "dummy_rps": statistics.median(dummy_rps), "rounds": ratios,
                "cpu_us": {name: (cell or {}).get("cpu_us", float("nan")) for name, cell in costs.items()},
                "statuses_ok": all((cell or {}).get("non2xx", 0) == 0 for cell in costs.values())}
    finally:
        spec.stop()
        dummy.stop()


CONTRACT_DOCUMENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "openapi", "openapi.yaml")


def contract_figures(common, binary, rounds, seconds):
    """The contract check's cost per proxied exchange: GET /products/1 through `--upstream` alone and through
    `--upstream --spec openapi/openapi.yaml` (every request and reply checked, the reply held whole), both in front
    of one DummyJSON Understudy, interleaved rounds at c32; req/s and the proxy's CPU per request."""
    upstream = common.Server("upstream", [binary, "--port", "0", "--quiet"])
    plain = common.Server("proxy", [binary, "--port", "0", "--quiet", "--upstream", upstream.url])
    checked = common.Server("checking proxy", [binary, "--port", "0", "--quiet", "--upstream", upstream.url,
                                               "--spec", CONTRACT_DOCUMENT])
    try:
        for server in (plain, checked):
            common.wrk(server, "/products/1", 32, 1)
        cells = {"plain": [], "checked": []}
        for index in range(rounds):
            order = [("plain", plain), ("checked", checked)]
            if index % 2:
                order.reverse()
            for name, server in order:
                cells[name].append(common.wrk(server, "/products/1", 32, seconds))
        median = {name: {key: statistics.median(cell[key] for cell in runs) for key in ("rps", "cpu_us")}
                  for name, runs in cells.items()}
        median["ok"] = all(cell.get("non2xx", 0) == 0 for runs in cells.values() for cell in runs)
        return median
    finally:
        for server in (checked, plain, upstream):
            server.stop()


def figures(common, binary, openapi, quick):
    """Every figure, and the report's rows (figure, target, measured, verdict)."""
    runs = 1 if quick else 3
    directory = tempfile.mkdtemp(prefix="understudy-spec-bench-")
    common.log("OpenAPI documents, loaded:")
    loads = load_figures(common, binary, openapi, runs)
    common.log("ten times OpenAI's operations:")
    big = tenfold(openapi, directory)
    tenfold_ms = check_ms(binary, big, runs)
    common.log(f"  {tenfold_ms:.0f} ms")
    common.log("launch to the first answer of a --spec server (OpenAI's document):")
    first = first_answer_ms(common, binary, os.path.join(openapi, "openai-openai-openapi/openapi.yaml"), "/models", runs)
    common.log(f"  {first:.0f} ms")
    common.log("a document's route against /products/1:")
    serving = serving_figures(common, binary, directory, 3 if quick else 7, 1 if quick else 3)
    common.log(f"  {serving}")
    common.log("the contract check per proxied exchange:")
    contract = contract_figures(common, binary, 3 if quick else 7, 1 if quick else 3)
    common.log(f"  {contract}")
    rows = []
    for name, bar in LOAD_BAR_MS.items():
        row = loads[name]
        rows.append((f"Load `{name.split('/')[-1]}` ({name.split('/')[0]})", f"≤ {bar} ms",
                     f"{row['ms']:.0f} ms, {row['rss']:.0f} MiB peak", common.verdict(row["ms"] <= bar)))
    base = loads["openai-openai-openapi/openapi.json"]["ms"]
    rows.append(("Load ten times OpenAI's operations (2,880, its paths under ten prefixes)", "≤ 3,000 ms, linear",
                 f"{tenfold_ms:.0f} ms ({tenfold_ms / base:.1f}× the document once)", common.verdict(tenfold_ms <= 3000)))
    rows.append(("Launch → first answer, `--spec` OpenAI's YAML", "≤ 300 ms (load and route)", f"{first:.0f} ms",
                 common.verdict(first <= 300)))
    rows.append(("A document's example route (`GET /pets/mine`) vs `/products/1` (c32, same run)", "≥ 0.90× req/s",
                 f"{serving['ratio']:.2f}× ({serving['spec_rps']:,.0f} vs {serving['dummy_rps']:,.0f} req/s)",
                 common.verdict(serving["ratio"] >= 0.9)))
    cost = serving["cpu_us"]
    rows.append(("Server CPU per request past the fast path (c8): an example, generated data (3 pets), a validated body",
                 "measured", f"{cost['example']:.0f} / {cost['generated']:.0f} / {cost['validated']:.0f} µs", "—"))
    plain, checked = contract["plain"], contract["checked"]
    rows.append(("Contract check per proxied exchange (`--upstream` + `--spec openapi/openapi.yaml` vs `--upstream`, "
                 "GET /products/1, c32)", "measured",
                 f"{checked['rps']:,.0f} vs {plain['rps']:,.0f} req/s ({checked['rps'] / plain['rps']:.2f}×); proxy CPU "
                 f"{checked['cpu_us']:.0f} vs {plain['cpu_us']:.0f} µs/req (+{checked['cpu_us'] - plain['cpu_us']:.0f})",
                 "—" if contract["ok"] else "FAIL (non-2xx)"))
    return {"loads": loads, "tenfold_ms": tenfold_ms, "first_ms": first, "serving": serving, "contract": contract}, rows
