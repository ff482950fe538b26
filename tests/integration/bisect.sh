# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: timeout=1800   (test_vm_bisect_run boots five times under TCG)
# lrubench bisect-step and bisect-log. The tests without a boot always run:
# usage errors (exit 129, so that git bisect run stops), a failed build
# (125), the make path on a fake kbuild tree. test_vm_bisect_run boots
# (LRUBENCH_TEST_VM=1, see vm.sh) and checks the exit codes through a real
# `git bisect run`.

source "$LRUBENCH_SRC/tests/fixtures/vm/common.sh"

# Label folders written by hand (results files are made to be): kernbench's
# elsp-2 of a good kernel (lower is better) and of a bad one.
bisect_results() {
  local l
  for l in good bad; do
    mkdir -p "$T/res/$l"
    printf '{"schema": 1, "label": "%s", "status": "complete"}\n' "$l" > "$T/res/$l/run.json"
  done
  printf '{"schema": 1, "workload": "kernbench", "tables": [{"title": "kernbench", "unit": "s",
    "better": "lower", "ops": [{"op": "elsp-2", "samples": [2.0, 2.2, 2.1]}]}]}\n' > "$T/res/good/kernbench.json"
  printf '{"schema": 1, "workload": "kernbench", "tables": [{"title": "kernbench", "unit": "s",
    "better": "lower", "ops": [{"op": "elsp-2", "samples": [5.0, 5.2, 5.1]}]}]}\n' > "$T/res/bad/kernbench.json"
}

# A git repository $T/repo with one commit per word of $@ in kernel.txt.
bisect_repo() {
  local k n=0
  git init -q "$T/repo" || fail "git init"
  for k in "$@"; do
    echo "$k" > "$T/repo/kernel.txt"
    git -C "$T/repo" add kernel.txt
    git -C "$T/repo" -c user.email=t@lrubench -c user.name=t commit -q --allow-empty -m "c$n $k" || fail "commit"
    n=$((n + 1))
  done
}

test_bisect_step_usage_errors_stop_git_bisect() {
  need_root
  need_cmd git
  need_cmd qemu-system-x86_64 qemu-system-x86
  bisect_results
  bisect_repo amd64
  local B=("$LRUBENCH" bisect-step --good "$T/res/good" --bad "$T/res/bad" --tree "$T/repo" --dir "$T/bisect")
  # 129 (git's own usage code): git bisect run stops instead of marking the commit bad
  expect_exit 129 "${B[@]}"
  assert_grep_err "give --op OP"
  expect_exit 129 "${B[@]}" --op elsp-9 -- true
  assert_grep_err "$T/res/good: no op 'elsp-9'"
  expect_exit 129 "${B[@]}" --op elsp-2 --stat median -- true
  assert_grep_err "--stat median: expected mean, amean, hmean or gmean"
  expect_exit 129 "$LRUBENCH" bisect-step --good "$T/res/good" --bad "$T/res/good" --op elsp-2 --dir "$T/bisect"
  assert_grep_err "the same Amean of elsp-2 (2.1): there is nothing to bisect"
  expect_exit 129 "${B[@]}" --op elsp-2
  assert_grep_err "give --kconfig FILE"
  expect_exit 129 "${B[@]}" --op elsp-2 --kconfig "$T/no-such.config"
  assert_grep_err "--kconfig $T/no-such.config: no such file"
  # the suite is checked by lrubench run itself before anything is built
  expect_exit 129 "${B[@]}" --op elsp-2 -w nosuch -- true
  assert_grep_err "the suite options are refused by lrubench run (exit 2)"
  assert_grep_err "unknown workload 'nosuch'"
  expect_exit 129 "${B[@]}" --op elsp-2 --set vm.colour=red -- true
  assert_grep_err "vm.colour"
  expect_exit 129 "${B[@]}" --op elsp-2 --no-such-flag
  assert_grep_err "unknown option '--no-such-flag'"
  mkdir "$T/notgit"
  expect_exit 129 "${B[@]}" --op elsp-2 --tree "$T/notgit" -- true
  assert_grep_err "$T/notgit is not a git tree"
  # the folder remembers what it bisects
  expect_exit 129 "${B[@]}" --op elsp-2 --stat gmean -- true
  assert_grep_err "$T/bisect bisects stat Amean, not Gmean: give another --dir"
  # no step was made by any of these
  [ -z "$(ls -A "$T/bisect/steps")" ] || fail "steps made: $(ls "$T/bisect/steps")"
  # bisect-log is an ordinary command: 2 for usage
  expect_exit 2 "$LRUBENCH" bisect-log "$T/repo"
  assert_grep_err "not a bisect folder"
  expect_exit 2 "$LRUBENCH" bisect-log
}

# A commit that does not build is skipped (125), through git bisect run:
# here every commit between good and bad fails to build, so git can only
# say which commits are left.
test_bisect_step_build_failure_is_a_skip() {
  need_root
  need_cmd git
  need_cmd qemu-system-x86_64 qemu-system-x86
  bisect_results
  bisect_repo good broken broken bad
  printf '#!/bin/sh\necho "building $(cat kernel.txt)"\n[ "$(cat kernel.txt)" != broken ] || { echo "error: broken" >&2; exit 2; }\nexit 3\n' > "$T/build.sh"
  chmod +x "$T/build.sh"
  local branch; branch=$(git -C "$T/repo" symbolic-ref --short HEAD)
  git -C "$T/repo" checkout -q HEAD~1
  expect_exit 125 "$LRUBENCH" bisect-step --good "$T/res/good" --bad "$T/res/bad" --op elsp-2 \
    --tree "$T/repo" --dir "$T/bisect" -- "$T/build.sh"
  assert_grep "is skipped (exit 125): build failed: the build command exited with 2" "$T/out"
  assert_grep "error: broken" "$T/bisect/steps/01-$(git -C "$T/repo" rev-parse --short=12 HEAD)/build.log"
  git -C "$T/repo" checkout -q "$branch"
  ( cd "$T/repo" && git bisect start HEAD HEAD~3 >/dev/null &&
    git bisect run "$LRUBENCH" bisect-step --good "$T/res/good" --bad "$T/res/bad" --op elsp-2 \
      --dir "$T/bisect" -- "$T/build.sh" ) >"$T/out" 2>"$T/err"
  assert_grep "There are only 'skip'ped commits left to test" "$T/out"
  expect_exit 0 "$LRUBENCH" bisect-log "$T/bisect"
  assert_grep "^bisect of op elsp-2 in 'kernbench' (s, lower is better), Amean:" "$T/out"
  assert_grep "midpoint 3.6" "$T/out"
  assert_grep "^3 steps: 0 good, 0 bad, 3 skipped$" "$T/out"
  assert_grep "build failed: the build command exited with 2" "$T/out"
}

# No build command: make O=BUILD olddefconfig, bzImage, and modules when the
# .config has any, in a fake kbuild tree that records what it was asked.
# Its bzImage has no 9p, so the boot is refused (lrubench run exits 3) and
# the step is skipped before qemu starts.
test_bisect_step_make_path() {
  need_root
  need_cmd git
  need_cmd qemu-system-x86_64 qemu-system-x86
  need_cmd make
  bisect_results
  bisect_repo v1
  cat > "$T/repo/Makefile" <<'MK'
# fake kbuild: records each target with its O= and INSTALL_MOD_PATH
olddefconfig bzImage modules modules_install:
	echo "$@ O=$(O) MOD=$(INSTALL_MOD_PATH)" >> $(O)/targets
	if [ $@ = olddefconfig ]; then echo "CONFIG_OLDDEFCONFIG=y" >> $(O)/.config; fi
	if [ $@ = bzImage ]; then mkdir -p $(O)/arch/x86/boot && cp $(FAKE_IMAGE) $(O)/arch/x86/boot/bzImage; fi
	if [ $@ = modules_install ]; then mkdir -p $(INSTALL_MOD_PATH)/lib/modules/9.9.9-bisect; fi
.PHONY: olddefconfig bzImage modules modules_install
MK
  vm_fake_bzimage "$T/fake-bzImage" 9.9.9-bisect
  printf 'CONFIG_MODULES=y\nCONFIG_EXT4_FS=m\n# CONFIG_9P_FS is not set\n' > "$T/base.config"
  FAKE_IMAGE=$T/fake-bzImage expect_exit 125 "$LRUBENCH" bisect-step --good "$T/res/good" \
    --bad "$T/res/bad" --op elsp-2 --tree "$T/repo" --dir "$T/bisect" --kconfig "$T/base.config" -j 3
  local step; step=$T/bisect/steps/01-$(git -C "$T/repo" rev-parse --short=12 HEAD)
  assert_eq "$(cut -d' ' -f1 "$T/bisect/build/targets" | tr '\n' ' ')" \
    "olddefconfig bzImage modules modules_install " "make targets"
  assert_grep "^olddefconfig O=$T/bisect/build MOD=$" "$T/bisect/build/targets"
  assert_grep "^modules_install O=$T/bisect/build MOD=$step/modules$" "$T/bisect/build/targets"
  # the .config given, then olddefconfig's changes
  assert_grep "CONFIG_EXT4_FS=m" "$T/bisect/build/.config"
  assert_grep "CONFIG_OLDDEFCONFIG=y" "$T/bisect/build/.config"
  # a build without 9p cannot be booted: skipped, with why
  assert_grep "is skipped (exit 125): the boot or the suite failed (lrubench run exited 2: --kernel-a .*CONFIG_9P_FS" "$T/out"
  assert_grep "CONFIG_9P_FS" "$step/run-1.log"
  assert_eq "$(json_get "$step/decision.json" "['verdict']")" skip "verdict"
  assert_eq "$(json_get "$step/decision.json" "['image']")" "$T/bisect/build/arch/x86/boot/bzImage" "image"
}

# The real thing: a small repository whose "build" is a command that links
# one of the two Debian images by commit (it stands in for a kernel build:
# -amd64 is the good kernel, -rt-amd64 the bad one, one commit does not
# build), good and bad results measured first, then `git bisect run
# lrubench bisect-step` finds the first bad commit. The regression is made
# to order (vm_kernbench_tree: the build sleeps 3 s more on the rt kernel),
# so the verdicts do not depend on TCG's noise.
test_vm_bisect_run() {
  vm_kernels
  need_cmd git
  mkdir -p "$T/tmp" "$T/img"
  cd "$T" || fail "cd $T"
  vm_kernbench_tree "$T/src.tar" false "uname -r | grep -q -- -rt-"
  local suite=(--quick -w kernbench --set kernbench.source="$T/src.tar" --set global.iterations=3
               --set global.warmup=0)
  TMPDIR=$T/tmp expect_exit 0 "$LRUBENCH" run "${suite[@]}" --kernel good="$KA" --kernel bad="$KB" \
    -o "$T/res"
  bisect_repo amd64 amd64 broken amd64 rt rt
  cat > "$T/build.sh" <<EOF
#!/bin/sh
# stands in for a kernel build: "builds" the image this commit names
case \$(cat kernel.txt) in
  amd64) ln -sfn "$KA" "$T/img/bzImage" ;;
  rt) ln -sfn "$KB" "$T/img/bzImage" ;;
  *) echo "this commit does not build" >&2; exit 2 ;;
esac
EOF
  chmod +x "$T/build.sh"
  local first; first=$(git -C "$T/repo" rev-parse HEAD~1)   # c4, the first rt
  ( cd "$T/repo" && git bisect start HEAD HEAD~5 >/dev/null &&
    TMPDIR=$T/tmp git bisect run "$LRUBENCH" bisect-step --good "$T/res/good" --bad "$T/res/bad" \
      --op elsp-2 --dir "$T/bisect" --image "$T/img/bzImage" "${suite[@]}" -- "$T/build.sh" ) \
    >"$T/out" 2>"$T/err" || { tail -n 40 "$T/out" "$T/err"; fail "git bisect run failed"; }
  assert_grep "^$first is the first bad commit" "$T/out"
  # every step's verdict is its kernel's, and was kept
  expect_exit 0 "$LRUBENCH" bisect-log "$T/bisect"
  cat "$T/out"
  python3 - "$T/bisect" "$T/repo" <<'EOF' || fail "a step's verdict is not its kernel's"
import json, os, subprocess, sys
bdir, repo = sys.argv[1:]
seen = 0
for step in sorted(os.listdir(os.path.join(bdir, "steps"))):
    d = json.load(open(os.path.join(bdir, "steps", step, "decision.json")))
    k = subprocess.run(["git", "-C", repo, "show", d["commit"] + ":kernel.txt"],
                       capture_output=True, text=True).stdout.strip()
    want = {"amd64": ("good", 0), "rt": ("bad", 1), "broken": ("skip", 125)}[k]
    assert (d["verdict"], d["exit"]) == want, (step, k, d)
    if k != "broken":
        assert d["p"] < 0.10 and d["n"] >= 3, d
        assert os.path.exists(os.path.join(bdir, "steps", step, "results", "round-1", "kernbench.json")), step
    seen += 1
assert seen >= 2, seen
EOF
  assert_grep "^  good " "$T/out"
  assert_grep "good, .* bad, .* skipped$" "$T/out"
  vm_no_leftovers
}
