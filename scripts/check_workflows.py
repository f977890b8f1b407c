#!/usr/bin/env python3
"""The GitHub Actions workflows parse as YAML, every job has steps, and every `run:` step is shellcheck-clean as the
bash script the runner makes of it (`make test`, in scripts/contract.sh with its venv). Exits 1 naming the file and step."""
import glob
import os
import subprocess
import sys
import tempfile

try:
    import yaml  # PyYAML
except ImportError:
    sys.exit("workflows: needs PyYAML (Debian: apt-get install python3-yaml; Homebrew: brew install pyyaml)")

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def problems_in(path):
    with open(path, encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    name = os.path.relpath(path, ROOT)
    # YAML 1.1 reads the key `on` as true.
    if not isinstance(workflow, dict) or not (workflow.get("on") or workflow.get(True)) or not workflow.get("jobs"):
        return ["%s: not a workflow (needs `on` and `jobs`)" % name]
    found = []
    for job_name, job in workflow["jobs"].items():
        if not job.get("steps"):
            found.append("%s: job %s has no steps" % (name, job_name))
        for number, step in enumerate(job.get("steps", []), 1):
            if "run" not in step:
                continue
            with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as script:
                # What the runner runs for `shell: bash` (its default on macOS and Linux).
                script.write("#!/usr/bin/env bash\nset -eo pipefail\n" + step["run"])
            result = subprocess.run(["shellcheck", "--shell=bash", script.name], capture_output=True, text=True)
            os.unlink(script.name)
            if result.returncode != 0:
                found.append("%s: job %s, step %d (%s):\n%s" % (name, job_name, number, step.get("name", "run"),
                                                               result.stdout))
    return found


def main():
    paths = sorted(glob.glob(os.path.join(ROOT, ".github", "workflows", "*.yml")))
    problems = [p for path in paths for p in problems_in(path)]
    for problem in problems:
        print("workflows: " + problem)
    if problems or not paths:
        print("workflows: FAILED" if paths else "workflows: no workflow found")
        return 1
    print("workflows: %d file(s) parse, every run step is shellcheck-clean" % len(paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
