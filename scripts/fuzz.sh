#!/usr/bin/env bash
# Builds and runs imock's libFuzzer targets (docs/FUZZING.md).
#
#   scripts/fuzz.sh TARGET [SECONDS]     fuzz TARGET for SECONDS (default 60); TARGET is a name
#                                        under Tests/Fuzz/, a comma-separated list, or `all`
#   scripts/fuzz.sh --build TARGET       build only
#   scripts/fuzz.sh --repro TARGET FILE… run TARGET once on saved inputs (a crash file)
#   scripts/fuzz.sh --list               the target names
#   scripts/fuzz.sh --check              exit 0 if this swiftc can build fuzzers, 3 if not
#
# A run starts from the checked-in seeds (Tests/Fuzz/TARGET/corpus, and the inputs of past
# findings in Tests/Fuzz/TARGET/regressions) copied into .build/fuzz/corpus/TARGET, so nothing
# is ever written into the repository, with the target's dictionary (Tests/Fuzz/TARGET/
# TARGET.dict); Tests/Fuzz/TARGET/options may add libFuzzer flags, one per line.
#
# Exit status: 0 when every target ran its time without a finding; 1 when one crashed, broke a
# property, leaked, timed out or ran out of memory (the input is saved under
# .build/fuzz/artifacts/TARGET/ and a reproduction command is printed); 2 on a build failure;
# 3 when swiftc cannot build fuzzers here; 64 on bad usage.
#
# Environment: IMOCK_FUZZ_OPTIMIZATION=-Onone builds about three times faster and fuzzes
# several times slower than the default -O (for short runs); IMOCK_FUZZ_BUILD moves the build
# directory (default .build/fuzz, .build/fuzz-onone at -Onone).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FUZZ=$ROOT/Tests/Fuzz
OUT=""  # the build directory, as scripts/fuzz/build.sh reports it
# The Swift runtime's crash reporter hangs inside libFuzzer's signal handling.
export SWIFT_BACKTRACE=enable=no

usage() { sed -n '4,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 64; }

targets() { find "$FUZZ" -mindepth 2 -maxdepth 2 -name main.swift -printf '%h\n' | xargs -n1 basename | LC_ALL=C sort; }

# Sets NAMES to the targets of a TARGET argument (`msync` is another name of `protobuf`).
resolve() {
    local name
    NAMES=()
    if [[ $1 == all ]]; then mapfile -t NAMES < <(targets); return; fi
    for name in ${1//,/ }; do
        [[ $name == msync ]] && name=protobuf
        [[ -f $FUZZ/$name/main.swift ]] || { echo "fuzz: no target '$name'; targets: $(targets | xargs)" >&2; exit 64; }
        NAMES+=("$name")
    done
}

check_toolchain() {
    local probe
    probe=$(mktemp -d)
    printf '@_cdecl("LLVMFuzzerTestOneInput")\npublic func f(_ d: UnsafePointer<UInt8>?, _ n: Int) -> CInt { 0 }\n' > "$probe/probe.swift"
    if swiftc -parse-as-library -sanitize=fuzzer,address "$probe/probe.swift" -o "$probe/probe" >/dev/null 2>&1 \
        && "$probe/probe" -runs=1 >/dev/null 2>&1; then
        rm -rf "$probe"
        return 0
    fi
    rm -rf "$probe"
    echo "fuzz: this swiftc cannot build libFuzzer targets (swiftc -sanitize=fuzzer,address failed)" >&2
    return 3
}

# Builds the targets and sets OUT to the directory of their binaries.
build() {
    local binaries
    binaries=$("$ROOT/scripts/fuzz/build.sh" "$@") || exit 2
    OUT=$(dirname "$(head -1 <<< "$binaries")")
}

# The value of `-name=` in libFuzzer's final stats of log `$1`.
stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }

# Fuzzes target $1 for $2 seconds; prints a summary line, or the report of a finding.
run() {
    local name=$1 seconds=$2
    local corpus=$OUT/corpus/$name artifacts=$OUT/artifacts/$name/ log=$OUT/logs/$name.log
    mkdir -p "$corpus" "$artifacts" "$OUT/logs"
    local seeds
    for seeds in corpus regressions; do cp -n "$FUZZ/$name/$seeds/"* "$corpus/" 2>/dev/null || true; done
    local flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$artifacts")
    [[ -f $FUZZ/$name/$name.dict ]] && flags+=(-dict="$FUZZ/$name/$name.dict")
    [[ -f $FUZZ/$name/options ]] && mapfile -t -O "${#flags[@]}" flags < <(grep -v '^#' "$FUZZ/$name/options" | grep .)
    local before started=$SECONDS status=0
    before=$(ls "$artifacts" | wc -l)
    "$OUT/$name" "${flags[@]}" "$corpus" > "$log" 2>&1 || status=$?
    local runs rate
    runs=$(stat "$log" number_of_executed_units)
    rate=$(stat "$log" average_exec_per_sec)
    if ((status == 0)); then
        echo "fuzz: $name: ok, ${runs:-?} runs in $((SECONDS - started)) s (${rate:-?}/s), corpus $(ls "$corpus" | wc -l) inputs"
        return 0
    fi
    local finding
    finding=$(ls -t "$artifacts" | head -1)
    echo "fuzz: $name: FAILED (libFuzzer exit $status) after ${runs:-?} runs; last lines of $log:"
    grep -v '^#\|^\s*$\|Uses: [0-9]' "$log" | tail -40 | sed 's/^/    /'
    if (($(ls "$artifacts" | wc -l) > before)) && [[ -n $finding ]]; then
        echo "fuzz: $name: input saved as $artifacts$finding"
        echo "fuzz: reproduce:  scripts/fuzz.sh --repro $name $artifacts$finding"
        echo "fuzz: minimize:   SWIFT_BACKTRACE=enable=no $OUT/$name -minimize_crash=1 -max_total_time=60" \
            "-exact_artifact_path=$artifacts$finding.min $artifacts$finding"
    fi
    return 1
}

(($#)) || usage
case $1 in
--list) targets ;;
--check) check_toolchain ;;
--build)
    (($# == 2)) || usage
    check_toolchain || exit 3
    resolve "$2"
    build "${NAMES[@]}"
    ;;
--repro)
    (($# >= 3)) || usage
    resolve "$2"
    build "${NAMES[0]}"
    shift 2
    exec "$OUT/${NAMES[0]}" -runs=1 "$@"
    ;;
-*) usage ;;
*)
    (($# <= 2)) || usage
    seconds=${2:-60}
    [[ $seconds =~ ^[1-9][0-9]*$ ]] || usage
    check_toolchain || exit 3
    resolve "$1"
    build "${NAMES[@]}"
    failed=()
    for name in "${NAMES[@]}"; do run "$name" "$seconds" || failed+=("$name"); done
    if ((${#failed[@]})); then
        echo "fuzz: findings in: ${failed[*]}"
        exit 1
    fi
    ;;
esac
