# SPDX-License-Identifier: GPL-2.0-or-later
# The command line. Each command declares its options once, in a table
# (core/parse_options.h); its --help, the synopsis in `lrubench --help` and
# the usage errors come from that table. The man pages and README are
# written by hand, so these tests hold them to it, mechanically:
#
#   A man page's SYNOPSIS is read as text by cli_synopsis below (.B/.I/.RI
#   lines and plain text joined by spaces, .RB/.IR/.BR/.BI alternating words
#   joined without, \- read as -, one synopsis line per .br). Then
#   - lrubench.1, and the command's own page lrubench-CMD.1 where it has one,
#     hold a line equal word for word to the usage line of `lrubench CMD
#     --help` (its wrapped lines joined);
#   - every other synopsis line of a command (lrubench-vm.7's form of run,
#     lrubench-fetch.1's TARBALL form), and the command cell of each row of
#     README's Commands table, name only options that `lrubench CMD --help`
#     lists (or -h, --help, --version).
# Word-for-word equality was chosen over generating the SYNOPSIS from the
# binary: the pages stay plain roff that anyone can edit, and when a table
# changes this test fails showing both lines, the new one ready to copy.
# No root needed: nothing here runs a workload.

CLI_COMMANDS="run compare plot report trend list check fetch noise bisect-step bisect-log pack push fleet"

# The usage line of `lrubench CMD --help`, joined over its wrapped lines,
# without "usage: lrubench ".
cli_usage() {
  "$LRUBENCH" "$1" --help | awk 'NR == 1 { sub(/^usage: lrubench /, ""); u = $0; next }
    /^ / && !done { $1 = $1; u = u " " $0; next } { done = 1 } END { print u }'
}

# Every option `lrubench CMD --help` lists, one a line, with -h, --help and
# --version that every command takes.
cli_options() {
  printf '%s\n' -h --help --version
  "$LRUBENCH" "$1" --help | python3 -c '
import re, sys
for line in sys.stdin:
    m = re.match(r" {4}((?:-[A-Za-z0-9], )?(?:    )?--?[A-Za-z0-9][-A-Za-z0-9]*)", line)
    if m:
        for opt in re.findall(r"--?[A-Za-z0-9][-A-Za-z0-9]*", m.group(1)):
            print(opt)'
}

# The SYNOPSIS lines of a man page as plain text, one a line.
cli_synopsis() {
  python3 - "$1" <<'PY'
import re, shlex, sys
lines, inside = [], False
for raw in open(sys.argv[1]):
    raw = raw.rstrip("\n")
    if raw.startswith(".SH"):
        inside = raw.split(None, 1)[1:] == ["SYNOPSIS"]
        continue
    if inside:
        lines.append(raw)
out, cur = [], []
for raw in lines:
    if raw.startswith('.\\"'):
        continue
    if raw in (".br", ".PP", ".sp"):
        out.append(" ".join(cur)); cur = []
        continue
    text = raw.replace("\\-", "-").replace("\\&", "").replace("\\ ", "\x00")
    text = re.sub(r"\\f[BIRP]", "", text)
    m = re.match(r"\.([A-Z]{1,2})\s*(.*)", text)
    if not m:
        cur.append(text.replace("\x00", " "))
        continue
    macro, args = m.group(1), [a.replace("\x00", " ") for a in shlex.split(m.group(2))]
    cur.append(" ".join(args) if macro in ("B", "I", "SM") else "".join(args))
out.append(" ".join(cur))
for line in out:
    line = " ".join(line.split())
    if line:
        print(line)
PY
}

# Option names in a line of synopsis text.
cli_named_options() {
  grep -oE '(^|[][ |(])--?[A-Za-z0-9][-A-Za-z0-9]*' <<<"$1" | sed 's/^[][ |(]//'
}

# Every option named in "$2" (synopsis text) is one of command $1's.
cli_names_known() {
  local cmd=$1 text=$2 where=$3 opt
  cli_options "$cmd" > "$T/opts-$cmd"
  for opt in $(cli_named_options "$text"); do
    grep -qxF -- "$opt" "$T/opts-$cmd" ||
      fail "$where names $opt, which 'lrubench $cmd --help' does not list: $text"
  done
}

test_cli_help_every_command() {
  local c
  for c in $CLI_COMMANDS; do
    expect_exit 0 "$LRUBENCH" "$c" --help
    assert_grep "^usage: lrubench $c" "$T/out"
    [ -s "$T/err" ] && fail "$c --help wrote to stderr: $(head -3 "$T/err")"
    # the text fits a terminal
    if awk 'length > 80 { exit 1 }' "$T/out"; then :; else
      fail "$c --help has lines longer than 80 columns: $(awk 'length > 80' "$T/out" | head -2)"
    fi
    cp "$T/out" "$T/help-$c"
    expect_exit 0 "$LRUBENCH" "$c" -h
    cmp -s "$T/out" "$T/help-$c" || fail "$c -h differs from $c --help"
    expect_exit 0 "$LRUBENCH" help "$c"
    cmp -s "$T/out" "$T/help-$c" || fail "lrubench help $c differs from $c --help"
    expect_exit 0 "$LRUBENCH" "$c" --version
    assert_grep "^lrubench [0-9]" "$T/out"
  done
}

# Before the one option system, main.c answered every `CMD --help` with one
# usage line, so compare's detailed help could not be reached.
test_cli_compare_help_is_the_full_help() {
  expect_exit 0 "$LRUBENCH" compare --help
  assert_grep "^Formats: text is mmtests' compare-kernels layout" "$T/out"
  assert_grep "p < alpha (--alpha, default 0.10)" "$T/out"
  assert_grep "fail-on-regression PCT exits 1" "$T/out"
  assert_grep "^        --junit FILE" "$T/out"
  expect_exit 0 "$LRUBENCH" run --help
  assert_grep "^VM mode (lrubench-vm(7))" "$T/out"
  assert_grep "^        --kernel-a IMG" "$T/out"
}

# --help and --version answer anyone; run itself needs root (exit 3).
test_cli_help_without_root() {
  need_cmd setpriv util-linux
  local as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  "${as_nobody[@]}" true 2>/dev/null || skip "cannot switch to uid 65534 here"
  expect_exit 0 "${as_nobody[@]}" "$LRUBENCH" run --help
  assert_grep "^usage: lrubench run" "$T/out"
  expect_exit 0 "${as_nobody[@]}" "$LRUBENCH" run --version
  expect_exit 3 "${as_nobody[@]}" "$LRUBENCH" run -w readtwice
  assert_grep_err "run it as root"
}

test_cli_top_level_help_lists_every_synopsis() {
  local c u
  expect_exit 0 "$LRUBENCH" --help
  tr -s ' \n' '  ' < "$T/out" > "$T/joined"
  for c in $CLI_COMMANDS; do
    u=$(cli_usage "$c")
    grep -qF -- "lrubench $u " "$T/joined" || fail "lrubench --help lacks: lrubench $u"
  done
  expect_exit 2 "$LRUBENCH"
  assert_grep_err "^usage: lrubench"
  expect_exit 0 "$LRUBENCH" --version
  assert_grep "^lrubench [0-9]" "$T/out"
  expect_exit 2 "$LRUBENCH" help nosuchcommand
  assert_grep_err "'nosuchcommand' is not a lrubench command"
}

# A bad flag is a usage error (exit 2) whose message names it.
test_cli_bad_flags_named() {
  local c usage
  for c in $CLI_COMMANDS; do
    # bisect-step runs under git bisect run, where 2 would mean "bad commit":
    # its usage errors are git's 129, which stop the bisection
    usage=2; [ "$c" = bisect-step ] && usage=129
    expect_exit $usage "$LRUBENCH" "$c" --no-such-flag
    assert_grep_err "unknown option '--no-such-flag' (see 'lrubench $c --help')"
    expect_exit $usage "$LRUBENCH" "$c" -Z
    assert_grep_err "unknown option '-Z'"
    [ -s "$T/out" ] && fail "$c wrote to stdout on a usage error: $(head -3 "$T/out")"
  done
  expect_exit 2 "$LRUBENCH" run -w readtwice -o
  assert_grep_err "option '-o' needs a value"
  expect_exit 2 "$LRUBENCH" compare --alpha
  assert_grep_err "option '--alpha' needs a value"
  expect_exit 2 "$LRUBENCH" plot --quiet=yes x
  assert_grep_err "option '--quiet=yes' takes no value"
  expect_exit 2 "$LRUBENCH" fetch --retries 99 http://127.0.0.1:1/x
  assert_grep_err "--retries: 99 is out of range (0..20)"
  expect_exit 2 "$LRUBENCH" check extra
  assert_grep_err "takes no arguments, not 'extra'"
  expect_exit 2 "$LRUBENCH" list nosuchsection
  assert_grep_err "unknown section 'nosuchsection'"
  expect_exit 2 "$LRUBENCH" run --kernel-a ""
  assert_grep_err "--kernel-a: empty image path"
  # the [vm] aliases are checked as the keys they set, and named as typed
  expect_exit 2 "$LRUBENCH" run --kernel-a host --vm-memory 64M
  assert_grep_err "--vm-memory 64M: vm.memory: 64M is out of range"
  expect_exit 2 "$LRUBENCH" run --kernel-a host --set vm.timeout=5s
  assert_grep_err "--set vm.timeout=5s: vm.timeout: 5s is out of range"
}

test_cli_synopsis_matches_man_pages() {
  local c u page line found
  for c in $CLI_COMMANDS; do
    u=$(cli_usage "$c")
    [ -n "$u" ] || fail "no usage line from lrubench $c --help"
    for page in "$LRUBENCH_SRC/man/lrubench.1" "$LRUBENCH_SRC/man/lrubench-$c.1"; do
      [ -f "$page" ] || continue
      cli_synopsis "$page" > "$T/synopsis"
      found=0
      while IFS= read -r line; do
        case $line in
          "lrubench $c"|"lrubench $c "*) ;;
          *) continue ;;
        esac
        if [ "$line" = "lrubench $u" ]; then
          found=1
        else
          cli_names_known "$c" "$line" "$(basename "$page")"
        fi
      done < "$T/synopsis"
      [ "$found" = 1 ] || fail "$(basename "$page") SYNOPSIS has no line equal to \
'lrubench $c --help':
  help: lrubench $u
  page: $(grep "^lrubench $c\( \|$\)" "$T/synopsis" | head -1)"
    done
  done
  # VM mode is a form of run with a page of its own
  cli_synopsis "$LRUBENCH_SRC/man/lrubench-vm.7" > "$T/synopsis"
  line=$(grep '^lrubench run ' "$T/synopsis")
  [ -n "$line" ] || fail "lrubench-vm.7 has no synopsis of lrubench run"
  cli_names_known run "$line" lrubench-vm.7
}

# The checks above must be able to fail: a page that drops an option, or
# names one the command lacks, is caught.
test_cli_synopsis_check_catches_drift() {
  local u
  u=$(cli_usage compare)
  sed 's/^\.RB \[ \\-\\-alpha$/.RB [ \\-\\-alfa/' "$LRUBENCH_SRC/man/lrubench-compare.1" > "$T/drift.1"
  cli_synopsis "$T/drift.1" > "$T/synopsis"
  grep -qxF -- "lrubench $u" "$T/synopsis" && fail "a renamed option went unnoticed"
  ( cli_names_known compare "$(grep '^lrubench compare' "$T/synopsis")" drift.1 ) 2>/dev/null &&
    fail "--alfa was taken for an option of compare"
  cli_synopsis "$LRUBENCH_SRC/man/lrubench-compare.1" > "$T/synopsis"
  grep -qxF -- "lrubench $u" "$T/synopsis" || fail "the real page should match"
}

test_cli_readme_commands_table() {
  local c cell n=0
  for c in $CLI_COMMANDS; do
    while IFS= read -r cell; do
      cell=${cell//\\|/|}
      cli_names_known "$c" "$cell" "README.md's Commands table"
      n=$((n + 1))
    done < <(sed -n "s/^| \`\(lrubench $c\( [^\`]*\)\?\)\` |.*/\1/p" "$LRUBENCH_SRC/README.md")
  done
  [ "$n" -ge 6 ] || fail "README.md's Commands table: found $n command rows, expected every command"
}
