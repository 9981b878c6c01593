#!/usr/bin/env bash
# Builds imock's libFuzzer targets: scripts/fuzz/build.sh TARGET...  (names under Tests/Fuzz/)
#
# SwiftPM cannot link a libFuzzer binary on Linux, so this drives swiftc directly:
#   1. Each library module a target needs (found by following `import IMock…` lines from the
#      target's files through Sources/<Module>/**/*.swift) is compiled as a whole module
#      directory, with coverage and ASan instrumentation, into
#      .build/fuzz/cache/modules/<Module>.{o,swiftmodule}.
#   2. The target (Tests/Fuzz/<name>/*.swift plus Tests/Fuzz/Support/*.swift) is compiled and
#      linked with those objects and libFuzzer's main into .build/fuzz/<name>.
# Both steps are cached under a key that hashes the compiler, the flags and every input file,
# so a build is redone only when something it reads changed. Source files are never listed by
# hand: a module is whatever Sources/<Module>/ holds today.
#
# Prints the path of each target's binary. Environment: IMOCK_FUZZ_OPTIMIZATION (below);
# IMOCK_FUZZ_BUILD is where everything goes (default .build/fuzz, .build/fuzz-onone at -Onone).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The package's Swift settings (Package.swift `strictSettings`, Swift 6 mode) plus the fuzzing
# instrumentation. IMOCK_FUZZ_OPTIMIZATION: -O (default; the fuzzers run several times faster)
# or -Onone (modules compile about three times faster: short runs, as in the Swift test).
OPTIMIZATION=${IMOCK_FUZZ_OPTIMIZATION:--O}
[[ $OPTIMIZATION == -O || $OPTIMIZATION == -Onone ]] || { echo "fuzz build: IMOCK_FUZZ_OPTIMIZATION must be -O or -Onone" >&2; exit 64; }
# Each optimization level keeps its own build directory, so switching does not rebuild.
DEFAULT_OUT=$ROOT/.build/fuzz
[[ $OPTIMIZATION == -Onone ]] && DEFAULT_OUT+=-onone
OUT=${IMOCK_FUZZ_BUILD:-$DEFAULT_OUT}
CACHE=$OUT/cache
MODULES=$CACHE/modules
COMMON_FLAGS=(
    -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature MemberImportVisibility
    -package-name imock -parse-as-library -sanitize=fuzzer,address "$OPTIMIZATION" -gline-tables-only
    -I "$MODULES"
)
for modulemap in "$ROOT"/Sources/*/module.modulemap; do COMMON_FLAGS+=(-I "$(dirname "$modulemap")"); done
# The toolchain's lld links quietly; the system's gold warns about every ASan symbol.
LINK_FLAGS=()
if [[ -x $(dirname "$(command -v swiftc)")/ld.lld ]] || command -v ld.lld >/dev/null; then LINK_FLAGS=(-use-ld=lld); fi

die() { echo "fuzz build: $*" >&2; exit 1; }

# The IMock… modules `files` import (one per line, sorted, without duplicates).
imports_of() {
    grep -hoE '^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*((public|internal|package|private|fileprivate)[[:space:]]+)?import[[:space:]]+((struct|class|enum|protocol|typealias|func|var|let)[[:space:]]+)?IMock[A-Za-z0-9_]*' "$@" 2>/dev/null \
        | awk '{print $NF}' | sort -u || true
}

# The Swift files of a module directory, sorted (a stable order keeps the cache key stable).
module_sources() { find "$ROOT/Sources/$1" -name '*.swift' -type f | LC_ALL=C sort; }

# The cache key of a list of files: compiler, flags and every file's path and contents.
key_of() {
    {
        swiftc --version 2>&1
        printf '%s\n' "${COMMON_FLAGS[@]}"
        for file in "$@"; do printf '%s ' "${file#"$ROOT"/}"; sha256sum < "$file"; done
    } | sha256sum | cut -d' ' -f1
}

declare -A MODULE_KEY=()   # module → key, once built in this run
declare -A VISITING=()

# Builds `module` after the modules it imports; sets MODULE_KEY[module].
build_module() {
    local module=$1
    [[ -n ${MODULE_KEY[$module]:-} ]] && return 0
    [[ -d $ROOT/Sources/$module ]] || die "no module directory Sources/$module"
    [[ -z ${VISITING[$module]:-} ]] || die "import cycle through $module"
    VISITING[$module]=1
    local sources=() dependency dependency_keys=""
    mapfile -t sources < <(module_sources "$module")
    ((${#sources[@]})) || die "Sources/$module holds no Swift files"
    for dependency in $(imports_of "${sources[@]}"); do
        [[ $dependency == "$module" ]] && continue
        build_module "$dependency"
        dependency_keys+="${MODULE_KEY[$dependency]}"
    done
    local key
    key=$( { key_of "${sources[@]}"; echo "$dependency_keys"; } | sha256sum | cut -d' ' -f1)
    if [[ $(cat "$MODULES/$module.key" 2>/dev/null) != "$key" ]]; then
        echo "fuzz build: compiling module $module (${#sources[@]} files)" >&2
        local started=$SECONDS
        rm -f "$MODULES/$module.key"
        swiftc "${COMMON_FLAGS[@]}" -module-name "$module" -wmo -emit-module \
            -emit-module-path "$MODULES/$module.swiftmodule" -c -o "$MODULES/$module.o" "${sources[@]}" \
            || die "module $module does not compile"
        echo "$key" > "$MODULES/$module.key"
        echo "fuzz build: module $module took $((SECONDS - started)) s" >&2
    fi
    MODULE_KEY[$module]=$key
    unset "VISITING[$module]"
}

# Appends to LINKED every module `module` needs not yet there, itself last (dependency order).
LINKED=()
link_order() {
    local module=$1 dependency
    [[ " ${LINKED[*]} " == *" $module "* ]] && return 0
    for dependency in $(imports_of $(module_sources "$module")); do
        [[ $dependency == "$module" ]] || link_order "$dependency"
    done
    LINKED+=("$module")
}

# Builds target `name` into $OUT/name.
build_target() {
    local name=$1 directory=$ROOT/Tests/Fuzz/$1
    [[ -f $directory/main.swift ]] || die "no fuzz target $name (expected Tests/Fuzz/$name/main.swift)"
    local files=() module objects=() keys=""
    mapfile -t files < <(find "$directory" "$ROOT/Tests/Fuzz/Support" -maxdepth 1 -name '*.swift' -type f | LC_ALL=C sort)
    LINKED=()
    for module in $(imports_of "${files[@]}"); do
        build_module "$module"
        link_order "$module"
    done
    for module in ${LINKED[@]+"${LINKED[@]}"}; do
        objects+=("$MODULES/$module.o")
        keys+=${MODULE_KEY[$module]}
    done
    local key
    key=$( { key_of "${files[@]}"; echo "$keys"; } | sha256sum | cut -d' ' -f1)
    if [[ $(cat "$CACHE/targets/$name.key" 2>/dev/null) != "$key" || ! -x $OUT/$name ]]; then
        echo "fuzz build: linking target $name (modules: ${LINKED[*]:-none})" >&2
        rm -f "$CACHE/targets/$name.key"
        # main.swift holds only declarations (-parse-as-library): libFuzzer provides main().
        swiftc "${COMMON_FLAGS[@]}" ${LINK_FLAGS[@]+"${LINK_FLAGS[@]}"} -module-name "FuzzTarget" -o "$OUT/$name" "${files[@]}" \
            ${objects[@]+"${objects[@]}"} || die "target $name does not build"
        echo "$key" > "$CACHE/targets/$name.key"
    fi
    echo "$OUT/$name"
}

(($#)) || die "usage: scripts/fuzz/build.sh TARGET..."
mkdir -p "$MODULES" "$CACHE/targets"
# One build at a time per build directory (the Swift test and a person may run it together).
exec 9> "$CACHE/lock"
flock 9
for target in "$@"; do build_target "$target"; done
