# SPDX-License-Identifier: GPL-2.0-or-later
# Mutation smoke test: the mutants listed in bench/mutants-smoke (the fastest
# killed ones of a full `bench/mutate` run, the fastest of each file first)
# must each be caught by the unit tests, so that a change which weakens the
# tests -- or the code's checks they pin down -- fails `make check`. The full
# run, `bench/mutate`, is a benchmark: it prints every mutant and the score.
# No root needed; the mutants are built in scratch copies, never in the tree.

test_mutants_smoke_all_killed() {
  need_cmd python3
  local rc
  "$LRUBENCH_SRC/bench/mutate" --smoke -j 2 >"$T/out" 2>"$T/err"; rc=$?
  if [ "$rc" != 0 ]; then
    sed -n '/^id /,$p' "$T/out"; cat "$T/err"
    fail "bench/mutate --smoke exited $rc: a mutant survived or no longer applies"
  fi
  # every one listed ran and was caught (a timeout counts as caught)
  local want
  want=$(grep -c '^[^#]' "$LRUBENCH_SRC/bench/mutants-smoke")
  [ "$want" -ge 20 ] || fail "bench/mutants-smoke lists $want mutants, expected 20"
  grep -q "^mutants $want: killed [0-9]*, timeout [0-9]*, survived 0 " "$T/out" ||
    { tail -20 "$T/out"; fail "not every smoke mutant was killed"; }
  grep -q "^score: $want/$want = 100.0%" "$T/out" || { tail -20 "$T/out"; fail "score below 100%"; }
}
