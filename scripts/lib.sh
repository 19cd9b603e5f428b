# scripts/lib.sh — what scripts/serve, dist, bench and test share. Source it from a script that has
# cd'd to the repository root:   source scripts/lib.sh
#
#   al_jobs                 parallel build jobs: $JOBS when set, else the number of cores
#   al_build_site DIR       configure the wasm preset into DIR, build the site; prints its folder
#   al_build PRESET TARGET… configure a preset and build the named targets

# Emscripten 3.1.6 quirk: emcc runs node, which must see Debian's acorn (docs/TOOLCHAIN.md).
export NODE_PATH=/usr/share/nodejs

al_jobs() {
  echo "${JOBS:-$(nproc)}"
}

al_build() {
  local preset="$1"
  shift
  cmake --preset "$preset" >/dev/null || return 1
  cmake --build --preset "$preset" -j "$(al_jobs)" --target "$@"
}

# The web app's site folder (index.html, attention-lab.js/.wasm, demos/) after a build in DIR
# (default build/wasm). Build output goes to stderr so that stdout is the folder alone.
al_build_site() {
  local build="${1:-build/wasm}" site f
  # -DAL_BUILD_APP=ON: a cache from an early configure may say OFF.
  # Each step checked here: callers use `site="$(al_build_site)" || …`, where errexit is off.
  cmake --preset wasm -B "$build" -DAL_BUILD_APP=ON >/dev/null || return 1
  cmake --build "$build" -j "$(al_jobs)" --target attention-lab-site >&2 || return 1
  site="$(sed -n 's/^AL_SITE_DIR:INTERNAL=//p' "$build/CMakeCache.txt")"
  site="${site:-$PWD/$build/web}"
  for f in index.html attention-lab.js attention-lab.wasm demos/index.json; do
    if [ ! -f "$site/$f" ]; then
      echo "$site/$f is missing after the build" >&2
      return 1
    fi
  done
  echo "$site"
}
