"""The checks of scripts/check-containers.sh that need more than a linter: what the Dockerfile
and docker-compose.yml say, their command lines run for real, and the runtime packages against
`ldd` of the imock binary.

Usage: python3 check_containers.py --root REPO --binary IMOCK [--static-binary IMOCK]
Prints one line per check; exits 1 at the first failure, naming it.
"""
import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

# Packages debian:bookworm-slim already has (Essential or Priority: required, or needed by
# apt): the runtime stage need not install them.
BASE_PACKAGES = {"libc6", "libgcc-s1", "libstdc++6", "zlib1g"}
SECRET = "check-containers-secret"
checks = 0


class Failure(Exception):
    pass


def ok(text):
    global checks
    checks += 1
    print(f"check-containers: ok — {text}", flush=True)


def require(condition, message):
    if not condition:
        raise Failure(message)


# ---- Dockerfile ------------------------------------------------------------------------------

def dockerfile_stages(path):
    """[(from line, [(INSTRUCTION, arguments)])], continuation lines joined, comments dropped."""
    lines, current = [], ""
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.strip().startswith("#") or not line.strip():
            continue
        if line.endswith("\\"):
            current += line[:-1] + " "
            continue
        lines.append(current + line)
        current = ""
    stages = []
    for line in lines:
        instruction, _, arguments = line.strip().partition(" ")
        instruction = instruction.upper()
        if instruction == "FROM":
            stages.append((arguments.strip(), []))
        elif stages:
            stages[-1][1].append((instruction, arguments.strip()))
    return stages


def apt_packages(run):
    """The package names of `apt-get install …` in one RUN line."""
    packages = []
    for command in run.split("&&"):
        words = shlex.split(command)
        if "apt-get" in words and "install" in words:
            packages += [word for word in words[words.index("install") + 1:] if not word.startswith("-")]
    return packages


def exec_form(arguments, what):
    try:
        value = json.loads(arguments)
    except json.JSONDecodeError:
        raise Failure(f"{what} is not in exec (JSON array) form: {arguments}") from None
    require(isinstance(value, list) and all(isinstance(item, str) for item in value), f"{what} is not a list of strings")
    return value


def check_dockerfile(root):
    stages = dockerfile_stages(os.path.join(root, "Dockerfile"))
    require(len(stages) == 2, f"expected two stages (build, runtime), found {len(stages)}")
    (build_from, build), (runtime_from, runtime) = stages
    require(re.fullmatch(r"swift:6\.\d+-bookworm AS build", build_from), f"build stage: FROM {build_from}")
    require(runtime_from == "debian:bookworm-slim AS runtime", f"runtime stage: FROM {runtime_from}")
    ok(f"two stages: {build_from.split()[0]} → {runtime_from.split()[0]}")

    build_runs = " ".join(arguments for instruction, arguments in build if instruction == "RUN")
    require("swift build -c release --static-swift-stdlib --product imock" in build_runs,
            "the build stage does not run `swift build -c release --static-swift-stdlib --product imock`")
    ok("release build with --static-swift-stdlib")

    def one(name):
        values = [arguments for instruction, arguments in runtime if instruction == name]
        require(len(values) == 1, f"runtime stage: expected one {name}, found {len(values)}")
        return values[0]

    user = one("USER")
    require(re.fullmatch(r"[1-9]\d*(:[1-9]\d*)?", user), f"USER {user} is not a numeric non-root user")
    ok(f"runs as USER {user}")
    require(one("EXPOSE") == "5280", "EXPOSE is not 5280")
    require("/var/lib/imock" in exec_form(one("VOLUME"), "VOLUME"), "VOLUME does not name /var/lib/imock")
    require(one("WORKDIR") == "/usr/share/imock", "WORKDIR is not /usr/share/imock")
    require(("COPY", "Fixtures /usr/share/imock/Fixtures") in runtime, "the fixture catalogue is not copied to /usr/share/imock/Fixtures")
    ok("EXPOSE 5280, VOLUME /var/lib/imock, Fixtures in the working directory")

    health = one("HEALTHCHECK")
    match = re.match(r"(.*?)CMD (\[.*\])$", health)
    require(match, f"HEALTHCHECK has no exec-form CMD: {health}")
    health_command = exec_form(match.group(2), "HEALTHCHECK CMD")
    require("/_imock/health" in " ".join(health_command), "HEALTHCHECK does not probe /_imock/health")
    require(exec_form(one("ENTRYPOINT"), "ENTRYPOINT") == ["imock"], "ENTRYPOINT is not [\"imock\"]")
    serve = exec_form(one("CMD"), "CMD")
    require(serve[:1] == ["serve"], "CMD does not start with serve")
    require(option(serve, "--host") == "0.0.0.0" and option(serve, "--port") == "5280" and "--control-remote" in serve,
            f"CMD must serve on 0.0.0.0:5280 with --control-remote: {serve}")
    require(option(serve, "--data") == "/var/lib/imock", f"CMD must keep its state in the volume (--data /var/lib/imock): {serve}")
    ok(f"HEALTHCHECK on /_imock/health; ENTRYPOINT imock; CMD {' '.join(serve)}")

    packages = []
    for instruction, arguments in runtime:
        if instruction == "RUN":
            packages += apt_packages(arguments)
    return {"health": health_command, "serve": serve, "packages": set(packages)}


def option(arguments, name):
    """The value after `name` (or of `name=value`) in an argument list."""
    for index, argument in enumerate(arguments):
        if argument == name and index + 1 < len(arguments):
            return arguments[index + 1]
        if argument.startswith(name + "="):
            return argument.split("=", 1)[1]
    return None


# ---- docker-compose.yml ----------------------------------------------------------------------

def load_yaml(path):
    try:
        from ruamel.yaml import YAML
        return YAML(typ="safe").load(open(path, encoding="utf-8"))
    except ImportError:
        import yaml  # PyYAML
        return yaml.safe_load(open(path, encoding="utf-8"))


def interpolate(value, environment):
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error}, with `environment` as the shell's."""
    if isinstance(value, dict):
        return {key: interpolate(item, environment) for key, item in value.items()}
    if isinstance(value, list):
        return [interpolate(item, environment) for item in value]
    if not isinstance(value, str):
        return value

    def replace(match):
        name, operator, word = match.group(1), match.group(2), match.group(3)
        current = environment.get(name, "")
        if operator == ":-":
            return current or word
        if operator == ":?":
            if not current:
                raise Failure(f"compose needs {name}: {word}")
            return current
        return current
    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", replace, value)


def check_compose(root):
    raw = load_yaml(os.path.join(root, "docker-compose.yml"))
    try:
        interpolate(raw, {})
        raise Failure("compose starts without IMOCK_ADMIN_SECRET; it must be required")
    except Failure as failure:
        require("IMOCK_ADMIN_SECRET" in str(failure), str(failure))
    ok("IMOCK_ADMIN_SECRET is required (${IMOCK_ADMIN_SECRET:?…})")
    compose = interpolate(raw, {"IMOCK_ADMIN_SECRET": SECRET})
    imock, conformance = compose["services"]["imock"], compose["services"]["conformance"]

    command = imock["command"]
    require(command[:1] == ["serve"] and option(command, "--host") == "0.0.0.0" and option(command, "--port") == "5280"
            and "--control-remote" in command, f"imock must serve on 0.0.0.0:5280 with --control-remote: {command}")
    require(imock["ports"] == ["127.0.0.1:5280:5280"], f"imock must publish 5280 on 127.0.0.1 only: {imock['ports']}")
    require(imock["environment"].get("IMOCK_ADMIN_SECRET") == SECRET, "imock does not get IMOCK_ADMIN_SECRET")
    seed_target = option(command, "--seed")
    mounts = {volume.split(":")[1]: volume for volume in imock["volumes"]}
    require(seed_target in mounts and mounts[seed_target].endswith(":ro"), f"the seed {seed_target} is not mounted read-only")
    seed_source = os.path.join(root, mounts[seed_target].split(":")[0])
    require(os.path.isfile(seed_source), f"the default seed file {seed_source} does not exist")
    require(mounts.get("/var/lib/imock", "").startswith("imock-data:") and "imock-data" in compose.get("volumes", {}),
            "the state directory /var/lib/imock is not the named volume imock-data")
    require(option(command, "--data") == "/var/lib/imock", f"imock must keep its state in the volume (--data /var/lib/imock): {command}")
    ok(f"imock: {' '.join(command)}; port 127.0.0.1:5280; seed {os.path.relpath(seed_source, root)}; volume imock-data")

    require(conformance.get("profiles") == ["conformance"], "conformance is not under the profile 'conformance'")
    require(conformance.get("depends_on", {}).get("imock", {}).get("condition") == "service_healthy",
            "conformance does not wait for imock to be healthy")
    run = conformance["command"]
    expected = {"--server": "http://imock:5280", "--admin-secret": SECRET, "--junit": "/reports/junit.xml", "--html": "/reports/report.html"}
    require(run[:1] == ["run"] and all(option(run, name) == value for name, value in expected.items()) and run[-1] == "Fixtures",
            f"conformance must run the catalogue against http://imock:5280 with reports: {run}")
    require(any(volume.endswith(":/reports") for volume in conformance["volumes"]), "conformance does not mount /reports")
    require(conformance["image"] == imock["image"], "conformance does not use imock's image")
    ok("conformance: profile, health-gated depends_on, " + " ".join(run))
    return {"serve": command, "seed": seed_source}


# ---- The command lines, run -----------------------------------------------------------------

def serve(binary, arguments, substitutions):
    """Starts `imock` with `arguments` (host, port and seed replaced for this machine)."""
    arguments = [substitutions.get(argument, argument) for argument in arguments]
    environment = dict(os.environ, IMOCK_ADMIN_SECRET=SECRET)
    process = subprocess.Popen([binary] + arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, env=environment, text=True)
    deadline = time.monotonic() + 20
    log = ""
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        log += line
        found = re.search(r" listening address=\S+:(\d+) ", line)
        if found:
            return process, int(found.group(1))
    process.kill()
    process.wait()
    raise Failure(f"`imock {' '.join(arguments)}` did not start: {log}")


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def healthcheck(command, port):
    command = [part.replace("5280", str(port)) for part in command]
    return subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, timeout=10).returncode


def control(port, path, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Bearer {SECRET}"},
                                     data=None if body is None else json.dumps(body).encode())
    if body is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=10) as response:
        return json.load(response)


def check_running(binary, dockerfile, compose):
    with tempfile.TemporaryDirectory(prefix="imock-check-containers-") as state:
        # The volume /var/lib/imock is a scratch directory here.
        local = {"0.0.0.0": "127.0.0.1", "5280": "0", "/var/lib/imock": state}
        compose_local = dict(local, **{"/etc/imock/seed.json": compose["seed"]})
        process, port = serve(binary, compose["serve"], compose_local)
        try:
            require(healthcheck(dockerfile["health"], port) == 0, "the HEALTHCHECK command fails against a running server")
            apps = [app["appKey"] for app in control(port, "/_imock/export")["apps"]]
            require(apps, "the default seed has no app")
            clock = control(port, "/_imock/clock/advance", {"ms": 60000})
            ok(f"compose's serve command starts with the default seed (apps {', '.join(apps)}; clock frozen={clock['frozen']}); HEALTHCHECK passes")
        finally:
            stop(process)
        require(healthcheck(dockerfile["health"], port) != 0, "the HEALTHCHECK command passes with no server")
        ok("HEALTHCHECK fails when nothing listens")
        process, port = serve(binary, compose["serve"], compose_local)
        try:
            require(control(port, "/_imock/clock") == clock, "a restart on the state directory did not keep the clock")
            require([app["appKey"] for app in control(port, "/_imock/export")["apps"]] == apps, "a restart lost the apps")
            ok("a restart on the state directory (--data) keeps the apps and the clock")
        finally:
            stop(process)
    with tempfile.TemporaryDirectory(prefix="imock-check-containers-") as state:
        process, port = serve(binary, dockerfile["serve"], dict(local, **{"/var/lib/imock": state}))
        stop(process)
    ok("the Dockerfile's CMD starts imock serve")


# ---- Libraries --------------------------------------------------------------------------------

def linked(binary):
    """[(soname, resolved path)] from ldd, without the vDSO and the dynamic loader."""
    output = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    libraries = []
    for line in output.splitlines():
        match = re.match(r"\s*(\S+) => (\S+) \(", line)
        if match:
            libraries.append((match.group(1), os.path.realpath(match.group(2))))
        elif "=> not found" in line:
            raise Failure(f"ldd: {line.strip()}")
    return libraries


def package_of(path):
    for candidate in (path, path.replace("/usr/lib/", "/lib/", 1), path.replace("/lib/", "/usr/lib/", 1)):
        result = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if result.returncode == 0:
            return result.stdout.split(":")[0].strip()
    raise Failure(f"no Debian package owns {path}")


def check_libraries(root, binary, packages, static_binary):
    libraries = linked(binary)
    swift = [(name, path) for name, path in libraries if "/lib/swift/linux/" in path]
    system = [(name, path) for name, path in libraries if "/lib/swift/linux/" not in path]
    for name, path in swift:
        archive = path.split("/lib/swift/linux/")[0] + "/lib/swift_static/linux/" + name.split(".so")[0] + ".a"
        require(os.path.exists(archive), f"{name} has no static archive ({archive}): --static-swift-stdlib cannot replace it")
    ok(f"{len(swift)} Swift runtime libraries, each with a static archive for --static-swift-stdlib")
    if static_binary:
        left = [name for name, path in linked(static_binary) if "/lib/swift/linux/" in path]
        require(not left, f"the --static-swift-stdlib binary still links {left}")
        ok("the --static-swift-stdlib binary links no Swift library")
    owners = {}
    for name, path in system:
        owners.setdefault(package_of(path), []).append(name)
    needed = set(owners) - BASE_PACKAGES
    missing, extra = needed - packages, packages - needed
    require(not missing, "the runtime stage lacks " + ", ".join(f"{package} ({', '.join(owners[package])})" for package in sorted(missing)))
    require(not extra, f"the runtime stage installs {', '.join(sorted(extra))}, which the binary does not link")
    ok("runtime packages = what ldd needs beyond the base image: " + ", ".join(
        f"{package} ({', '.join(names)})" for package, names in sorted(owners.items())))
    document = open(os.path.join(root, "docs", "CONTAINERS.md"), encoding="utf-8").read()
    absent = [name for name, _ in libraries if f"`{name}`" not in document]
    require(not absent, f"docs/CONTAINERS.md does not list {', '.join(absent)}")
    ok(f"docs/CONTAINERS.md lists all {len(libraries)} libraries ldd shows")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--static-binary")
    options = parser.parse_args()
    try:
        dockerfile = check_dockerfile(options.root)
        compose = check_compose(options.root)
        check_running(options.binary, dockerfile, compose)
        check_libraries(options.root, options.binary, dockerfile["packages"], options.static_binary)
    except (Failure, OSError, subprocess.SubprocessError) as failure:
        print(f"check-containers: FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"check-containers: passed ({checks} checks, plus the schema and hadolint)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
