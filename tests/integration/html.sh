# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML results page (issue 29): `report -f html -o DIR` and `compare -f
# html`, read by Debian's chromium in headless mode: the rendered DOM's
# tables equal compare's JSON, every figure decodes, text from results files
# (an op named <script>...) is shown as text and never run, no console
# message, no request to any network address (chromium's own net log), and
# a screenshot kept with the test's logs. Nothing is mocked: real results
# folders of the shape `run` writes, real gnuplot, real chromium.
# run-tests: timeout=900

FIX=$LRUBENCH_SRC/tests/fixtures/compare
# screenshots outlive the test's folder: CI keeps build/
ARTIFACTS=${LRUBENCH_TEST_ARTIFACTS:-$LRUBENCH_SRC/build/test-artifacts}

HOSTILE_OP="<script>document.title='pwned'</script>"
HOSTILE_TABLE="readtwice MB/s <img src=http://127.0.0.1:9/t.png> aggregate"

# gen_hostile DIR NWL: two labels (base, cand) of NWL workloads, the first
# with a hostile table title and op name, a hostile uname -v; samples grow
# with the op and the label, deterministic.
gen_hostile() {
  python3 - "$1" "$2" "$HOSTILE_OP" "$HOSTILE_TABLE" <<'EOF'
import json, os, sys
root, nwl, hop, htable = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
for li, label in enumerate(["6.8.0-base", "6.8.0-cand"]):
    d = os.path.join(root, label)
    os.makedirs(d)
    json.dump({"schema": 1, "label": label, "status": "complete",
               "started": "2026-11-%02dT22:15:30Z" % (li + 1),
               "system": {"kernel_release": label, "machine": "x86_64", "nr_cpus": 64,
                          "kernel_version": "#1 SMP <script>document.title='pwned'</script>",
                          "mem_total_kb": 263921232, "numa_nodes": 2, "cpu_model": "AMD EPYC 7452",
                          "virt": "host", "cgroup_mode": "v2"},
               "config": {"global": {"iterations": "5", "warmup": "1"}}},
              open(os.path.join(d, "run.json"), "w"))
    for w in range(nwl):
        name = "readtwice" if w == 0 else "wl%d" % w
        tables = []
        for t, (title, better, unit) in enumerate([
                (htable if w == 0 else name + " MB/s aggregate", "higher", "MB/s"),
                (name + " Latency 95th percentile", "lower", "ms")]):
            ops = ["memcgs-%d" % (1 << k) for k in range(8)] + ([hop] if w == 0 and t == 0 else [])
            tables.append({"title": title, "unit": unit, "better": better, "ops": [
                {"op": op, "samples": [1000.0 * (oi + 1) * (1 + 0.04 * li) * (1 + 0.01 * k)
                                       for k in range(5)]}
                for oi, op in enumerate(ops)]})
        json.dump({"schema": 1, "workload": name, "tables": tables},
                  open(os.path.join(d, name + ".json"), "w"))
EOF
}

# chromium_do ARGS... URL: headless Debian chromium with no profile of its
# own, no background traffic, no name resolution (nothing can reach a
# network by name); stderr in $T/chromium.err
chromium_do() {
  mkdir -p "$T/chromium"
  timeout 180 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --disable-default-apps --host-resolver-rules='MAP * ~NOTFOUND' \
    --user-data-dir="$(mktemp -d "$T/chromium/profile.XXXXXX")" --enable-logging=stderr --v=0 \
    "$@" 2>"$T/chromium.err"
}

# Static checks of a page file: no script element, no event handler
# attribute, every src a data: URI of an image, every href a file of ours
# beside the page; prints the number of images.
check_static() {
  python3 - "$1" <<'EOF' || fail "$1: not a self-contained page"
import html.parser, os, sys, urllib.parse
page = sys.argv[1]
class P(html.parser.HTMLParser):
    imgs = 0
    def handle_starttag(self, tag, attrs):
        assert tag not in ("script", "iframe", "object", "embed", "link", "base"), tag
        for k, v in attrs:
            assert not k.startswith("on"), "event handler %s=%r" % (k, v)
            if k == "src":
                assert tag == "img" and v.startswith("data:image/svg+xml,<"), v[:80]
                P.imgs += 1
            if k == "href":
                u = urllib.parse.urlsplit(v)
                assert not u.scheme and not u.netloc and "/" not in u.path, "href %r" % v
                assert os.path.isfile(os.path.join(os.path.dirname(page), urllib.parse.unquote(u.path))), v
P().feed(open(page, encoding="utf-8").read())
print(P.imgs)
EOF
}

test_html_page_in_chromium() {
  need_cmd gnuplot gnuplot-nox
  need_cmd chromium chromium
  gen_hostile "$T/r" 2
  # the nightly's page: the comparison and the series of every night
  expect_exit 0 "$LRUBENCH" report -f html --trend "$T/r" -o "$T/page" "$T/r"
  [ -s "$T/out" ] && fail "report -f html printed to stdout"
  assert_file "$T/page/index.html"
  assert_file "$T/page/compare.json"
  assert_file "$T/page/label-1-6.8.0-base-run.json"
  assert_file "$T/page/label-2-6.8.0-cand-wl1.json"
  ls -A "$T/page" | grep -q '^\.' && fail "a staging folder left in the page's folder"
  local nimg
  nimg=$(check_static "$T/page/index.html")
  [ "$nimg" -ge 7 ] || fail "only $nimg figures on the page"
  grep -q '<h2 id="trend">Trend</h2>' "$T/page/index.html" || fail "no trend section"

  # the page as chromium renders it
  chromium_do --log-net-log="$T/net.json" --dump-dom "file://$T/page/index.html" > "$T/dom.html" ||
    { tail "$T/chromium.err"; fail "chromium could not render the page"; }
  grep -q ':CONSOLE' "$T/chromium.err" && { grep ':CONSOLE' "$T/chromium.err"; fail "console messages"; }
  python3 - "$T/dom.html" "$T/page/compare.json" "$HOSTILE_OP" "$HOSTILE_TABLE" <<'EOF' || fail "the rendered page"
import html.parser, json, sys
dom, cmp, hop, htable = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tables = []; self.row = None; self.cell = None
        self.text = []; self.title = ""; self.intitle = False; self.scripts = 0
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == "script": self.scripts += 1
        if tag == "title": self.intitle = True
        if tag == "table" and a.get("class") == "results":
            self.tables.append({"wl": a["data-workload"], "title": a["data-table"], "rows": []})
        if tag == "tr" and self.tables: self.row = []
        if tag in ("td", "th") and self.row is not None: self.cell = [a, ""]
    def handle_endtag(self, tag):
        if tag == "title": self.intitle = False
        if tag in ("td", "th") and self.cell is not None: self.row.append(self.cell); self.cell = None
        if tag == "tr" and self.row is not None:
            if self.tables: self.tables[-1]["rows"].append(self.row)
            self.row = None
        if tag == "table": self.row = None
    def handle_data(self, d):
        self.text.append(d)
        if self.intitle: self.title += d
        if self.cell is not None: self.cell[1] += d
p = P(); p.feed(open(dom, encoding="utf-8").read())
assert p.scripts == 0, "a script element in the DOM"
assert "pwned" not in p.title and p.title.startswith("lrubench: 6.8.0-base vs 6.8.0-cand"), p.title
text = "".join(p.text)
assert hop in text, "the hostile op is not shown as text"
assert htable in text, "the hostile table title is not shown as text"
assert "<script>document.title='pwned'</script>" in text, "the hostile uname -v is not shown"
# every table of compare's JSON, with every number, in the DOM
want = [(w["workload"], t["title"], t) for w in cmp["workloads"] for t in w["tables"]]
got = {(t["wl"], t["title"]): t for t in p.tables}
assert len(got) == len(want) == 4, (len(got), len(want))
checked = 0
for wl, title, t in want:
    rows = got[(wl, title)]["rows"][1:]
    assert [r[0][1] for r in rows] == [o["op"] for o in t["ops"]], "ops of " + title
    for r, o in zip(rows, t["ops"]):
        means = [c for c in r if c[0].get("class") == "mean"]
        change = [c for c in r if (c[0].get("class") or "").startswith("change")]
        for c, lab in zip(means, o["labels"]):
            assert float(c[0]["data-mean"]) == lab["mean"], (title, o["op"])
            assert c[1].startswith("%.2f ± " % lab["mean"]), (c[1], lab["mean"])
            assert int(c[0]["data-n"]) == lab["n"]
            checked += 1
        cand = o["labels"][1]
        assert float(change[0][0]["data-pct"]) == cand["percent"]["mean"]
        assert change[0][1].startswith("%+.2f%%" % cand["percent"]["mean"]), change[0][1]
        sig = cand["mmtests_ttest"]["significant"]
        assert change[0][0]["data-significant"] == ("yes" if sig else "no")
        assert change[0][1].endswith(" *") == sig, change[0][1]
assert checked == 2 * (9 + 8 + 8 + 8), checked
EOF
  # no request to any network address: the page's own requests are those
  # whose isolation key is its file:// site (chromium's are not)
  python3 - "$T/net.json" <<'EOF' || fail "the page made a network request"
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
bad = [e["params"]["url"] for e in ev if str(e.get("params", {}).get("network_isolation_key", "")).startswith("file://")
       and "url" in e["params"] and not e["params"]["url"].startswith(("file:", "data:"))]
assert not bad, bad
EOF

  # every figure decodes: a copy of the page with a probe script before the
  # page's policy (which would forbid it) reads each image's size at load
  python3 - "$T/page/index.html" "$T/page/probe.html" <<'EOF'
import sys
s = open(sys.argv[1], encoding="utf-8").read()
probe = ("<script>addEventListener('load',function(){document.documentElement.setAttribute('data-probe',"
         "JSON.stringify(Array.from(document.images).map(function(i){return [i.complete,i.naturalWidth]})))})"
         "</script>")
open(sys.argv[2], "w", encoding="utf-8").write(s.replace("<head>\n", "<head>\n" + probe, 1))
EOF
  chromium_do --dump-dom "file://$T/page/probe.html" > "$T/probe.dom" || fail "chromium: the probe copy"
  python3 - "$T/probe.dom" "$nimg" <<'EOF' || fail "a figure did not load"
import html, json, re, sys
m = re.search(r'data-probe="([^"]*)"', open(sys.argv[1], encoding="utf-8").read())
assert m, "the probe did not run"
imgs = json.loads(html.unescape(m.group(1)))
assert len(imgs) == int(sys.argv[2]), imgs
assert all(c and w >= 300 for c, w in imgs), imgs
EOF

  # a phone's width and a desktop's, kept with the logs
  chromium_do --window-size=412,915 --screenshot="$T/phone.png" "file://$T/page/index.html" >/dev/null ||
    fail "chromium: no screenshot"
  chromium_do --window-size=1280,2000 --screenshot="$T/desktop.png" "file://$T/page/index.html" >/dev/null ||
    fail "chromium: no screenshot"
  python3 - "$T/phone.png" 412 "$T/desktop.png" 1280 <<'EOF' || fail "screenshots"
import struct, sys
for f, w in zip(sys.argv[1::2], sys.argv[2::2]):
    b = open(f, "rb").read(24)
    assert b[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">I", b[16:20])[0] == int(w), f
EOF
  mkdir -p "$ARTIFACTS"
  cp "$T/phone.png" "$ARTIFACTS/html-page-phone.png"
  cp "$T/desktop.png" "$ARTIFACTS/html-page-desktop.png"
  echo "screenshots: $ARTIFACTS/html-page-phone.png, $ARTIFACTS/html-page-desktop.png"
}

# The net log check can fail: the same page with an image from a network
# address and no policy is seen asking for it.
test_html_net_log_sees_a_request() {
  need_cmd chromium chromium
  expect_exit 0 "$LRUBENCH" report -f html --no-figures -o "$T/page" "$FIX/golden"
  sed -e 's/http-equiv="Content-Security-Policy"/name="removed"/' \
      -e 's|<body>|<body><img src="http://127.0.0.1:9/x.png">|' "$T/page/index.html" > "$T/page/bad.html"
  chromium_do --log-net-log="$T/net.json" --dump-dom "file://$T/page/bad.html" > /dev/null ||
    fail "chromium could not render the page"
  python3 - "$T/net.json" <<'EOF' || fail "the net log did not show the page's request"
import json, sys
ev = json.load(open(sys.argv[1]))["events"]
assert any(e.get("params", {}).get("url") == "http://127.0.0.1:9/x.png" and
           str(e["params"].get("network_isolation_key", "")).startswith("file://") for e in ev)
EOF
  # and with the page's own policy, the same image is refused (a console error)
  sed -e 's|<body>|<body><img src="http://127.0.0.1:9/x.png">|' "$T/page/index.html" > "$T/page/bad2.html"
  chromium_do --log-net-log="$T/net2.json" --dump-dom "file://$T/page/bad2.html" > /dev/null ||
    fail "chromium could not render the page"
  assert_grep 'Content Security Policy' "$T/chromium.err"
  grep -q '127.0.0.1:9' "$T/net2.json" && fail "the policy let a request through"
  return 0
}

# Without chromium: the page's markup, escaping and links, by a parser.
test_html_report_static() {
  need_cmd gnuplot gnuplot-nox
  gen_hostile "$T/r" 6
  expect_exit 0 "$LRUBENCH" report -f html -o "$T/page" "$T/r"
  local nimg size
  nimg=$(check_static "$T/page/index.html")
  # 6 workloads, 2 tables each: scaling and candles per table
  [ "$nimg" -ge 24 ] || fail "$nimg figures for 12 tables"
  grep -qF "$HOSTILE_OP" "$T/page/index.html" && fail "the hostile op unescaped"
  grep -qF '&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;' "$T/page/index.html" ||
    fail "the hostile op not escaped as text"
  # 2 labels x 6 workloads: the issue's goal is under 2 MB
  size=$(stat -c %s "$T/page/index.html")
  echo "page of 2 labels x 6 workloads: $size bytes"
  [ "$size" -lt $((2 << 20)) ] || fail "the page is $size bytes"
  # links to each label's results files, copied beside the page
  for f in run readtwice wl1 wl5; do
    cmp "$T/r/6.8.0-cand/$f.json" "$T/page/label-2-6.8.0-cand-$f.json" || fail "copy of $f.json"
    assert_grep "href=\"label-2-6.8.0-cand-$f.json\"" "$T/page/index.html"
  done
  # the kernel's log and failed ops under the tables: the golden fixture's
  # edge labels have none; compare -f html is the same page without figures
  expect_exit 0 "$LRUBENCH" compare -f html "$T/r"
  [ "$(check_static "$T/out")" = 0 ] || fail "compare -f html has figures"
  grep -c '<table class="results"' "$T/out" | grep -qx 12 || fail "compare -f html: not 12 tables"
}

# --trend: a nightly series of 7 labels, a step after the fourth
test_html_trend_section() {
  need_cmd gnuplot gnuplot-nox
  gen_hostile "$T/r" 1
  mkdir "$T/series"
  local i nimg
  for i in 1 2 3 4 5 6 7; do
    cp -r "$T/r/6.8.0-base" "$T/series/n$i"
    python3 - "$T/series/n$i" "$i" <<'EOF'
import json, sys
d, i = sys.argv[1], int(sys.argv[2])
r = json.load(open(d + "/run.json")); r["label"] = "n%d" % i
r["started"] = "2026-11-%02dT22:00:00Z" % i
json.dump(r, open(d + "/run.json", "w"))
w = json.load(open(d + "/readtwice.json"))
for t in w["tables"]:
    for o in t["ops"]:
        o["samples"] = [v * (1.3 if i > 4 else 1) * (1 + 0.001 * i) for v in o["samples"]]
json.dump(w, open(d + "/readtwice.json", "w"))
EOF
  done
  expect_exit 0 "$LRUBENCH" report -f html --trend "$T/series" -o "$T/page" "$T/series/n1" "$T/series/n7"
  nimg=$(check_static "$T/page/index.html")
  [ "$nimg" -ge 5 ] || fail "$nimg figures"
  python3 - "$T/page/index.html" <<'EOF' || fail "the trend section"
import sys
s = open(sys.argv[1], encoding="utf-8").read()
t = s[s.index('<h2 id="trend">'):s.index('<h2 id="json">')]
assert t.count("<img ") == 1, "not one trend figure"
assert "The 7 labels of the series" in t
assert '<details class="trend">' in t and "<pre>7 labels in time order" in t
assert "changed at" in t, "the step after n4 is not reported"
assert "&lt;script&gt;" in t and "<script>" not in t
EOF
  # the text report has no trend; a series of one label is none
  expect_exit 2 "$LRUBENCH" report --trend "$T/series" "$T/series/n1" "$T/series/n7"
  assert_grep_err "--trend is for -f html"
  mkdir "$T/one" && cp -r "$T/series/n1" "$T/one/"
  expect_exit 2 "$LRUBENCH" report -f html --trend "$T/one" -o "$T/p2" "$T/series/n1" "$T/series/n7"
  assert_grep_err "a trend needs two or more"
  assert_no_file "$T/p2/index.html"
}

test_html_usage_errors() {
  expect_exit 2 "$LRUBENCH" report -f html "$FIX/golden"
  assert_grep_err "give it with -o DIR"
  expect_exit 2 "$LRUBENCH" report -f pdf -o "$T/x" "$FIX/golden"
  assert_grep_err "'pdf': text or html"
  assert_no_file "$T/x"
  expect_exit 2 "$LRUBENCH" compare -f pdf "$FIX/golden"
  assert_grep_err "email or html"
  # a file where the folder should be
  : > "$T/file"
  expect_exit 2 "$LRUBENCH" report -f html --no-figures -o "$T/file" "$FIX/golden"
  # without gnuplot: exit 3 naming the way out, nothing written
  mkdir -p "$T/bin"
  expect_exit 3 env PATH="$T/bin" "$LRUBENCH" report -f html -o "$T/nog" "$FIX/golden"
  assert_grep_err "no-figures"
  assert_no_file "$T/nog/index.html"
  expect_exit 0 env PATH="$T/bin" "$LRUBENCH" report -f html --no-figures -o "$T/nog" "$FIX/golden"
  assert_file "$T/nog/index.html"
  grep -q '<img' "$T/nog/index.html" && fail "a figure despite --no-figures"
  # the text report is unchanged by -f text
  expect_exit 0 "$LRUBENCH" report --no-figures "$FIX/golden"
  mv "$T/out" "$T/text1"
  expect_exit 0 "$LRUBENCH" report -f text --no-figures "$FIX/golden"
  cmp "$T/out" "$T/text1" || fail "-f text differs from the default"
}
