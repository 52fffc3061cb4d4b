#!/usr/bin/env bash
# scripts/run_sanitizers.sh asan with a cmake whose builds fail (and a ctest
# that would pass): the run must fail, not test what an earlier build left.
set -euo pipefail
fakes="$(mktemp -d)"
trap 'rm -rf "$fakes"' EXIT
cat >"$fakes/cmake" <<'FAKE'
#!/bin/sh
case " $* " in *" --build "*) echo "fake cmake: the build fails"; exit 2 ;; esac
exit 0
FAKE
printf '#!/bin/sh\necho "fake ctest: 100%% tests passed"\n' >"$fakes/ctest"
chmod +x "$fakes/cmake" "$fakes/ctest"
PATH="$fakes:$PATH" "$(dirname "$0")/../../scripts/run_sanitizers.sh" asan
