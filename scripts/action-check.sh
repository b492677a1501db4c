#!/usr/bin/env bash
# action-check.sh: the step of mcptrail's GitHub Action (action.yml) that runs
# `mcptrail check --format sarif` over captures and writes the SARIF report.
# It exits with check's status (0 clean, 1 findings at or above --fail-on,
# 2 usage, 3 an input could not be read) so the action can fail the job after
# uploading the report; a report it cannot write exits 1 too, with no report.
#
# Environment (the action's inputs):
#   MCPTRAIL_CAPTURES  what to check, one a line: capture files, directories of
#                      captures, session ids (required)
#   MCPTRAIL_FAIL_ON   error, warning or info (empty: check's default, error)
#   MCPTRAIL_BASELINE  a baseline file; the findings it knows are suppressed
#   MCPTRAIL_ARGS      more arguments for check, split at whitespace
#   MCPTRAIL_SARIF     where to write the report (default mcptrail.sarif)
#   MCPTRAIL_BIN       the mcptrail binary (default: mcptrail on PATH)
#   GITHUB_OUTPUT      when set, receives exit-code=N, and sarif=PATH when a
#                      report was written (check exited 0 or 1)
set -uo pipefail

sarif="${MCPTRAIL_SARIF:-mcptrail.sarif}"
bin="${MCPTRAIL_BIN:-mcptrail}"

# output NAME VALUE appends a step output when running in GitHub Actions.
output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
  fi
}

# finish CODE records check's status and exits with it.
finish() {
  output exit-code "$1"
  exit "$1"
}

case "$sarif" in
*$'\n'* | *$'\r'* | "")
  echo "action-check: the sarif path must be one line" >&2
  finish 2
  ;;
esac

captures=()
while IFS= read -r line; do
  line="${line%$'\r'}"
  line="${line#"${line%%[![:space:]]*}"}"
  line="${line%"${line##*[![:space:]]}"}"
  if [ -n "$line" ]; then
    captures+=("$line")
  fi
done <<<"${MCPTRAIL_CAPTURES:-}"
if [ "${#captures[@]}" -eq 0 ]; then
  echo "action-check: no captures to check (the captures input is empty)" >&2
  finish 2
fi

args=(check --format sarif)
if [ -n "${MCPTRAIL_FAIL_ON:-}" ]; then
  args+=(--fail-on "$MCPTRAIL_FAIL_ON")
fi
if [ -n "${MCPTRAIL_BASELINE:-}" ]; then
  args+=(--baseline "$MCPTRAIL_BASELINE")
fi
read -r -a extra <<<"${MCPTRAIL_ARGS:-}"
args+=(${extra[@]+"${extra[@]}"} -- "${captures[@]}")

mkdir -p "$(dirname -- "$sarif")" || finish 1
tmp="$sarif.partial"
"$bin" "${args[@]}" >"$tmp"
code=$?
case "$code" in
0 | 1)
  mv -f -- "$tmp" "$sarif" || finish 1
  output sarif "$sarif"
  echo "action-check: mcptrail check exited $code; SARIF report in $sarif" >&2
  ;;
*)
  rm -f -- "$tmp"
  echo "action-check: mcptrail check exited $code; no SARIF report" >&2
  ;;
esac
finish "$code"
