#!/usr/bin/env bash
# Installs agent CLIs for the real-CLI tests into a shared cache outside node_modules:
# one prefix per package@version under ${MORI_AGENT_CLIS:-$HOME/.cache/mori-agent-clis}, so pinned
# versions live side by side and an installed one is never fetched again. Usage:
#   test/support/agent-clis/install.sh @openai/codex@0.171.0 @google/gemini-cli@0.61.0
# The tests find the executables under <dir>/<name>@<version>/bin (test/support/agent-clis/real-agents.ts, testkit/real-claude.ts).
# A failed install is reported and skipped: the tests for that CLI then skip with the reason.
set -uo pipefail
dir="${MORI_AGENT_CLIS:-$HOME/.cache/mori-agent-clis}"
mkdir -p "$dir"
status=0
for spec in "$@"; do
  # @scope/name@1.2.3 → scope+name@1.2.3 (a directory name without a slash)
  prefix="$dir/$(printf '%s' "$spec" | sed 's#^@##; s#/#+#')"
  if [ -f "$prefix/.installed" ]; then
    echo "agent-clis: $spec already in $prefix"
    continue
  fi
  echo "agent-clis: installing $spec into $prefix"
  start=$(date +%s)
  rm -rf "$prefix"
  if npm install --global --prefix "$prefix" --no-audit --no-fund --loglevel=error "$spec"; then
    touch "$prefix/.installed"
    echo "agent-clis: $spec installed in $(( $(date +%s) - start ))s, $(du -sh "$prefix" | cut -f1)"
  else
    echo "agent-clis: installing $spec failed; its tests will skip" >&2
    rm -rf "$prefix"
    status=1
  fi
done
exit $status
