# SPDX-License-Identifier: GPL-2.0-or-later
# run-tests: timeout=1500   (dpkg-buildpackage of the whole tree, on shared CPUs)
# The Debian package (debian/, issue 29): built with dpkg-buildpackage from
# a clean copy of the committed tree (git archive HEAD: uncommitted edits
# are not in it, as they are not in CI's clone), its contents checked,
# lintian clean, then unpacked with dpkg -x into a scratch root (never
# installed on this machine) and run from there. The installed binary finds
# its helper and its suites by the paths compiled in (/usr/libexec/lrubench,
# /usr/share/lrubench), so it runs in a private mount namespace whose /usr
# is an overlay of the scratch root's usr/ over this machine's /usr: it sees
# the package's files where dpkg -i would put them, and the machine's
# libraries and tools, and nothing is changed outside that namespace, which
# ends with the command.

deb_needs() {
  need_root
  need_cmd dpkg-buildpackage dpkg-dev
  need_cmd dh debhelper
  need_cmd lintian lintian
  need_cmd unshare util-linux
  need_cmd git git
  git -C "$LRUBENCH_SRC" rev-parse --verify -q HEAD >/dev/null ||
    skip "needs a git checkout ($LRUBENCH_SRC is not one): the package is built from git archive HEAD"
}

# in_root CMD...: CMD with the scratch root's usr/ over /usr (see above)
in_root() {
  unshare -m --propagation private -- sh -c \
    'mount -t overlay lrubench-deb -o "lowerdir=$0/usr:/usr" /usr && exec "$@"' "$R" "$@"
}

test_deb_package() {
  deb_needs
  local version arch deb f name
  version=$(sed -n 's/^VERSION := //p' "$LRUBENCH_SRC/Makefile")
  arch=$(dpkg --print-architecture)
  mkdir -p "$T/b/src"
  git -C "$LRUBENCH_SRC" archive HEAD | tar -x -C "$T/b/src"
  # nocheck: the unit tests are run-tests' own job (debian/rules runs them
  # otherwise); this test is about the package
  (cd "$T/b/src" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1 ||
    { tail -40 "$T/build.log"; fail "dpkg-buildpackage failed"; }
  deb=$T/b/lrubench_${version}_${arch}.deb
  assert_file "$deb"
  # the package's version is the program's
  assert_eq "$(dpkg-deb -f "$deb" Version)" "$version" "debian/changelog's version vs the Makefile's"

  dpkg -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$T/contents"
  for f in /usr/bin/lrubench /usr/libexec/lrubench/lrubench-net \
    /usr/libexec/lrubench/lrubench-nightly /usr/share/lrubench/configs/quick.conf \
    /usr/share/lrubench/configs/default.conf /lib/systemd/system/lrubench-nightly.service \
    /lib/systemd/system/lrubench-nightly.timer /etc/default/lrubench-nightly \
    /usr/share/doc/lrubench/copyright /usr/share/doc/lrubench/README.Debian; do
    grep -qx -- "$f" "$T/contents" || { cat "$T/contents"; fail "the package lacks $f"; }
  done
  for f in "$LRUBENCH_SRC"/configs/suites/*.conf; do
    grep -qx "/usr/share/lrubench/configs/suites/${f##*/}" "$T/contents" || fail "the package lacks suite ${f##*/}"
  done
  for f in "$LRUBENCH_SRC"/man/*.[17]; do
    name=${f##*/}
    grep -qx "/usr/share/man/man${name##*.}/$name.gz" "$T/contents" || fail "the package lacks man page $name"
  done
  ! grep -q '^/usr/local' "$T/contents" || fail "the package installs under /usr/local"
  dpkg-deb -f "$deb" Depends > "$T/depends"
  dpkg-deb -f "$deb" Recommends > "$T/recommends"
  assert_grep 'libcurl4' "$T/depends"
  for f in gnuplot-nox qemu-system-x86 linux-perf postgresql sysbench; do
    assert_grep "$f" "$T/recommends"
  done
  # the configuration file is a conffile; the nightly timer is installed,
  # never enabled or started by the package
  dpkg-deb -e "$deb" "$T/ctl"
  assert_grep '^/etc/default/lrubench-nightly$' "$T/ctl/conffiles"
  # (postinst may re-enable the timer on upgrade only where the admin had
  # enabled it: deb-systemd-helper was-enabled guards that)
  if [ -f "$T/ctl/postinst" ]; then
    ! grep -q 'deb-systemd-invoke start\|systemctl.*start' "$T/ctl/postinst" ||
      { cat "$T/ctl/postinst"; fail "postinst starts a unit"; }
    awk '/was-enabled/ { guard = 1 } /deb-systemd-helper enable/ && !guard { bad = 1 }
      /^[[:space:]]*fi$/ { guard = 0 } END { exit bad }' "$T/ctl/postinst" ||
      { cat "$T/ctl/postinst"; fail "postinst enables a unit the admin had not enabled"; }
  fi

  lintian --fail-on error,warning --pedantic --info "$T/b/lrubench_${version}_${arch}.changes" \
    >"$T/lintian.log" 2>&1 || { cat "$T/lintian.log"; fail "lintian is not clean"; }
  ! grep -q '^[EW]: ' "$T/lintian.log" || { cat "$T/lintian.log"; fail "lintian tags"; }

  R=$T/root
  dpkg -x "$deb" "$R"
  # the service runs the script where the package put it
  assert_grep '^ExecStart=/usr/libexec/lrubench/lrubench-nightly$' "$R/lib/systemd/system/lrubench-nightly.service"
  expect_exit 0 in_root /usr/bin/lrubench --version
  assert_grep "$version" "$T/out"
  expect_exit 0 in_root /usr/bin/lrubench list
  expect_exit 0 in_root /usr/bin/lrubench list --suites
  assert_grep '^suites in /usr/share/lrubench/configs/suites/' "$T/out"
  assert_grep 'readtwice-cgroupfs-short' "$T/out"
  # check's exit says what this machine lacks (3: kernbench's source, say):
  # the installed program must say what the build tree's says
  local want=0
  "$LRUBENCH" check >/dev/null 2>&1 || want=$?
  expect_exit "$want" in_root /usr/bin/lrubench check
  assert_grep 'readtwice  *yes' "$T/out"
  expect_exit 0 in_root /usr/bin/lrubench run --dry-run \
    -c /usr/share/lrubench/configs/suites/readtwice-cgroupfs-short.conf -o "$T/results"
  # a suite by its name (fleet plans name suites), found in /usr/share/lrubench
  printf '[fleet]\nname = d\nresults = %s\nsuite = readtwice-cgroupfs-short\nworkloads = readtwice\n[kernel base]\n' \
    "$T/fleet" > "$T/plan.ini"
  expect_exit 0 in_root /usr/bin/lrubench fleet plan "$T/plan.ini"
  assert_grep '/usr/share/lrubench/configs/suites/readtwice-cgroupfs-short.conf' "$T/out"
  # the helper: pack runs lrubench-net, found in /usr/libexec/lrubench
  expect_exit 0 in_root /usr/bin/lrubench pack -o "$T/v.tar.zst" \
    "$LRUBENCH_SRC/tests/fixtures/compare/golden/6.8.0-vanilla"
  assert_file "$T/v.tar.zst"
  expect_exit 0 in_root /usr/bin/lrubench compare "$T/v.tar.zst" \
    "$LRUBENCH_SRC/tests/fixtures/compare/golden/6.8.0-patched"
  # and without the package's helper, the error names the installed path
  rm "$R/usr/libexec/lrubench/lrubench-net"
  expect_exit 3 in_root /usr/bin/lrubench pack -o "$T/w.tar.zst" \
    "$LRUBENCH_SRC/tests/fixtures/compare/golden/6.8.0-vanilla"
  assert_grep_err '/usr/libexec/lrubench/lrubench-net'
}
