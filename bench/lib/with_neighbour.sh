#!/usr/bin/env bash
# with_neighbour.sh NEIGHBOUR CMD...: runs CMD with NEIGHBOUR (a program path, or '-' for none)
# running beside it in the same session, started half a second before and stopped after; exits
# with CMD's status. The scenario suite starts a neighbour the same way (tests/scenarios/).
set -uo pipefail
neighbour=$1
shift
pid=
if [[ $neighbour != - ]]; then
  "$neighbour" --duration 60 >/dev/null 2>&1 &
  pid=$!
  sleep 0.5 # up to speed first
fi
"$@"
status=$?
if [[ -n $pid ]]; then
  kill "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
fi
exit "$status"
