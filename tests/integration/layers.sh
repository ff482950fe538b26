# SPDX-License-Identifier: GPL-2.0-or-later
# The layer rules of docs/ARCHITECTURE.md §1, enforced: every #include under
# src/ is checked against §1's table "What each layer may include" (the one
# table of allowed edges; layers_check.py reads it from the document). No
# root needed: this reads sources only.

# Edges known to break the rules, each being removed by work in progress;
# the check fails once one of them is gone, so this list cannot go stale.
# None is left: readtwice's memcg tables go through the workload contract
# (wl_memcg_report, issue 31 point 2).
LAYERS_KNOWN=()

layers_check() {  # layers_check SRC DOC: the check's exit code, output in $T/out
  python3 "$LRUBENCH_SRC/tests/integration/layers_check.py" "$@" "${LAYERS_KNOWN[@]}" \
    >"$T/out" 2>&1
}

test_layers_of_the_tree_follow_architecture() {
  need_cmd python3
  layers_check "$LRUBENCH_SRC/src" "$LRUBENCH_SRC/docs/ARCHITECTURE.md" ||
    { cat "$T/out"; fail "src/ includes across the layers of ARCHITECTURE §1"; }
}

# A copy of the tree with a planted edge must fail, naming file:line, both
# layers, the header and the rule.
test_layers_forbidden_edge_is_named() {
  need_cmd python3
  cp -r "$LRUBENCH_SRC/src" "$T/src"
  printf '#include "commands/commands.h"\n' >>"$T/src/core/strlist.c"
  line=$(wc -l <"$T/src/core/strlist.c")
  layers_check "$T/src" "$LRUBENCH_SRC/docs/ARCHITECTURE.md"
  assert_eq "$?" 1 "exit code"
  assert_grep "^src/core/strlist.c:$line: core/ -> commands/ (commands/commands.h): not allowed: core/ may include its own files, compare/stats.h, compare/sequential.h (.*ARCHITECTURE.md §1)\$" "$T/out"
  [ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "more than the planted edge reported"; }
  # a workload including another workload's files
  cp -r "$LRUBENCH_SRC/src" "$T/src2"
  printf '#include <workloads/thpscale/layout.h>\n' >>"$T/src2/workloads/mmapread/mapper.c"
  layers_check "$T/src2" "$LRUBENCH_SRC/docs/ARCHITECTURE.md"
  assert_eq "$?" 1 "exit code"
  assert_grep "^src2/workloads/mmapread/mapper.c:[0-9]*: workloads/mmapread/ -> workloads/thpscale/" "$T/out"
  # a system header that shares a folder name with a layer is not an edge
  cp -r "$LRUBENCH_SRC/src" "$T/src3"
  printf '#include <net/if.h>\n' >>"$T/src3/core/strlist.c"
  layers_check "$T/src3" "$LRUBENCH_SRC/docs/ARCHITECTURE.md" || { cat "$T/out"; fail "<net/if.h> taken for src/net/"; }
}

# A known edge that no longer exists fails the check, naming it.
test_layers_stale_known_edge_fails() {
  need_cmd python3
  LAYERS_KNOWN+=(--known core/strlist.c=commands/)
  layers_check "$LRUBENCH_SRC/src" "$LRUBENCH_SRC/docs/ARCHITECTURE.md"
  assert_eq "$?" 1 "exit code"
  assert_grep "^known edge core/strlist.c -> commands/ no longer exists: take it off the --known list" "$T/out"
  [ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "more than the stale edge reported"; }
}

# The table is the data: a document without it, or naming a folder that
# does not exist, is an error of its own (2), not a pass.
test_layers_unreadable_table_is_an_error() {
  need_cmd python3
  printf '# doc\n\nno table here\n' >"$T/doc.md"
  layers_check "$LRUBENCH_SRC/src" "$T/doc.md"
  assert_eq "$?" 2 "exit code"
  assert_grep "has no line 'What each layer may include'" "$T/out"
  sed 's/`vm\/` (pooling)/`vms\/` (pooling)/' "$LRUBENCH_SRC/docs/ARCHITECTURE.md" >"$T/doc2.md"
  layers_check "$LRUBENCH_SRC/src" "$T/doc2.md"
  assert_eq "$?" 2 "exit code"
  assert_grep '`vms/` is neither a folder nor a header' "$T/out"
  # a folder of src/ without a row
  cp -r "$LRUBENCH_SRC/src" "$T/src"
  mkdir "$T/src/extra"
  printf '#include "core/util.h"\n' >"$T/src/extra/e.c"
  layers_check "$T/src" "$LRUBENCH_SRC/docs/ARCHITECTURE.md"
  assert_eq "$?" 1 "exit code"
  assert_grep "src/extra/e.c: its layer extra/ has no row" "$T/out"
}

# Every header's guard names its own file (LRUBENCH_..._<NAME>_H) and no two
# headers share one: a guard copied from another header hides it.
test_header_guards_name_their_file() {
  local h g base bad="" seen=""
  while IFS= read -r h; do
    g=$(sed -n 's/^#ifndef \(LRUBENCH_[A-Z0-9_]*_H\)$/\1/p' "$h" | head -1)
    base=$(basename "$h" .h | tr 'a-z' 'A-Z')
    case $g in
      *_"$base"_H) ;;
      *) bad="$bad
  $h: guard '${g:-none}' does not name ${base}_H"; continue ;;
    esac
    grep -q "^#define $g\$" "$h" || bad="$bad
  $h: #ifndef $g without its #define"
    case " $seen " in *" $g "*) bad="$bad
  $h: guard $g is another header's too" ;; esac
    seen="$seen $g"
  done < <(find "$LRUBENCH_SRC/src" -name '*.h' | sort)
  [ -z "$bad" ] || fail "header guards:$bad"
}

# No workload waits for several children on its own (ARCHITECTURE §5, issue
# 31): under src/workloads every wait primitive (child_wait, waitpid, a
# pidfd, child_watch_stuck, ...) is a core/child_set.h set's, except these
# call sites, each of one single child. A new one fails the check, naming
# file:line; one that is gone fails it too (take it off).
WAITS_SINGLE=(
  --single colocate/colocate.c=child_wait            # colocate's probe
  --single kernbench/kernbench.c=child_wait_watched  # run_tool: one make
  --single sysbench/driver.c=waitpid                 # run_capture: one tool's output (pg_ctl, initdb -V)
  --single sysbench/driver.c=waitid                  # pid_exited: has the postmaster exited?
  --single sysbench/driver.c=child_wait              # the postmaster that exited, reaped
  --single sysbench/sysbench.c=child_wait_watched    # one sysbench run, timed
  --single sysbench/sysbench.c=child_wait            # one sysbench run, untimed (prepare)
  --single useonce/useonce.c=child_wait_watched      # useonce's streamer
)

waits_check() {  # waits_check SRC [--single ...]: the check's exit code, output in $T/out
  python3 "$LRUBENCH_SRC/tests/integration/waits_check.py" "$@" >"$T/out" 2>&1
}

test_workloads_wait_for_children_only_through_child_set() {
  need_cmd python3
  waits_check "$LRUBENCH_SRC/src" "${WAITS_SINGLE[@]}" ||
    { cat "$T/out"; fail "a workload waits for its children itself (use core/child_set.h)"; }
}

# A planted wait loop is named with file:line; a wait in a comment or a
# string is not one; a listed wait that is gone is stale.
test_workloads_own_wait_loop_is_named() {
  need_cmd python3
  cp -r "$LRUBENCH_SRC/src" "$T/src"
  cat >>"$T/src/workloads/thpscale/layout.c" <<'C'
/* waitpid(pid, NULL, 0) in a comment is no call */
static const char *lrubench_planted = "child_wait(c, 0)";
static void lrubench_planted_loop(pid_t *pids, int n)
{
	for (int i = 0; i < n; i++)
		waitpid(pids[i], NULL, 0);
}
C
  line=$(wc -l <"$T/src/workloads/thpscale/layout.c")
  waits_check "$T/src" "${WAITS_SINGLE[@]}"
  assert_eq "$?" 1 "exit code"
  assert_grep "^src/workloads/thpscale/layout.c:$((line - 1)): waitpid(): a workload watches its children through core/child_set.h" "$T/out"
  [ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "more than the planted wait reported"; }
  waits_check "$LRUBENCH_SRC/src" "${WAITS_SINGLE[@]}" --single thpscale/engine.c=waitpid
  assert_eq "$?" 1 "exit code"
  assert_grep "^single-child wait thpscale/engine.c=waitpid no longer exists: take it off the list$" "$T/out"
  [ "$(wc -l <"$T/out")" = 1 ] || { cat "$T/out"; fail "more than the stale entry reported"; }
}
