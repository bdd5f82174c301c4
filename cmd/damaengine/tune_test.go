package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/damaengine/damaengine/egdb"
	"github.com/damaengine/damaengine/eval"
	"github.com/damaengine/damaengine/movegen"
	"github.com/damaengine/damaengine/tune"
)

func TestTuneHelpAndErrors(t *testing.T) {
	for _, args := range [][]string{{"tune", "--help"}, {"tune", "gen", "--help"}, {"tune", "label", "--help"}, {"tune", "fit", "-h"}, {"tune", "patterns", "--help"}} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 0 || !strings.HasPrefix(out.String(), "usage: damaengine tune") || errb.Len() != 0 {
			t.Errorf("%v: rc %d, stdout %q, stderr %q", args, rc, out.String(), errb.String())
		}
	}
	for _, args := range [][]string{
		{"tune"}, {"tune", "frob"}, {"tune", "gen"}, {"tune", "fit", "--data", "x"},
		{"tune", "gen", "--variant", "nope", "--out", "x"},
		{"tune", "fit", "--variant", "damone", "--data", "x", "--out", "y", "--k", "-1"},
		{"tune", "fit", "--variant", "italian", "--data", "x", "--out", "y", "--hidden", "12"},
		{"tune", "fit", "--variant", "italian", "--data", "x", "--out", "y", "--hidden", "16", "--init", "z.dw"},
		{"tune", "gen", "--out", "x", "--weights", "/nonexistent.dw"},
		{"tune", "label", "--data", "x"}, {"tune", "label", "--data", "x", "--out", "y", "--every", "0"},
		{"tune", "label", "--data", "x", "--out", "y", "--weights", "/nonexistent.dw"},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "damaengine tune") {
			t.Errorf("%v: rc %d, stdout %q, stderr %q", args, rc, out.String(), errb.String())
		}
	}
}

// TestTuneEndToEnd runs the steps at a tiny budget: two games, their
// positions scored again by a deeper search, then a two-epoch fit whose
// file loads.
func TestTuneEndToEnd(t *testing.T) {
	dir := t.TempDir()
	games, weights := filepath.Join(dir, "it.games"), filepath.Join(dir, "it.dw")
	var out, errb bytes.Buffer
	if rc := run([]string{"tune", "gen", "--variant", "italian", "--games", "2", "--nodes", "100", "--out", games}, nil, &out, &errb); rc != 0 {
		t.Fatalf("gen: rc %d, %s", rc, errb.String())
	}
	if out.Len() != 0 || !strings.Contains(errb.String(), "tune: games 2/2 (100.0%)") {
		t.Errorf("gen: stdout %q, progress %q", out.String(), errb.String())
	}
	errb.Reset()
	deep := filepath.Join(dir, "deep.games")
	if rc := run([]string{"tune", "label", "--variant", "italian", "--data", games, "--out", deep, "--nodes", "300", "--every", "2"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("label: rc %d, %s", rc, errb.String())
	}
	if out.Len() != 0 || !strings.Contains(errb.String(), "tune: games 2/2 (100.0%)") || !strings.Contains(errb.String(), "positions searched") {
		t.Errorf("label: stdout %q, progress %q", out.String(), errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", deep, "--out", weights, "--epochs", "2"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("fit: rc %d, %s", rc, errb.String())
	}
	if out.Len() != 0 || !strings.Contains(errb.String(), "epoch 2/2") {
		t.Errorf("fit: stdout %q, progress %q", out.String(), errb.String())
	}
	b, err := os.ReadFile(weights)
	if err != nil {
		t.Fatal(err)
	}
	defer eval.ResetWeights(movegen.Italian)
	if err := eval.LoadWeights(movegen.Italian, bytes.NewReader(b)); err != nil {
		t.Errorf("the fitted file does not load: %v", err)
	}
	// A fit from the weights just written, and one from a file that is
	// not a weights file.
	errb.Reset()
	again := filepath.Join(dir, "again.dw")
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", deep, "--out", again, "--epochs", "1", "--init", weights}, nil, &out, &errb); rc != 0 {
		t.Fatalf("fit --init: rc %d, %s", rc, errb.String())
	}
	if !strings.Contains(errb.String(), "tune: the --init weights: loss") {
		t.Errorf("fit --init: progress %q", errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", deep, "--out", again + "2", "--init", games}, nil, &out, &errb); rc != 1 ||
		!strings.Contains(errb.String(), "--init") || !strings.Contains(errb.String(), "not a weights file") {
		t.Errorf("fit --init GAMES: rc %d, stderr %q", rc, errb.String())
	}
	// A network fit: its file loads as a network, bench runs with it, and
	// --init refuses it.
	errb.Reset()
	netFile := filepath.Join(dir, "net.dw")
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", deep, "--out", netFile, "--hidden", "16", "--epochs", "2"}, nil, &out, &errb); rc != 0 {
		t.Fatalf("fit --hidden 16: rc %d, %s", rc, errb.String())
	}
	if out.Len() != 0 || !strings.Contains(errb.String(), "16 hidden units") || !strings.Contains(errb.String(), "epoch 2/2") {
		t.Errorf("fit --hidden: stdout %q, progress %q", out.String(), errb.String())
	}
	b, err = os.ReadFile(netFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := eval.LoadWeights(movegen.Italian, bytes.NewReader(b)); err != nil || eval.ActiveNet(movegen.Italian) == nil {
		t.Errorf("the network file does not load as a network: %v", err)
	}
	eval.ResetWeights(movegen.Italian)
	// Italian's embedded weights are a network too: what bench must put
	// back is the embedded evaluation, seen in the scores it gives.
	embedded := italianScores()
	out.Reset()
	errb.Reset()
	if rc := run([]string{"bench", "--depth", "3", "--eval-file", netFile}, nil, &out, &errb); rc != 0 || !strings.Contains(out.String(), "bench nodes=") {
		t.Errorf("bench --eval-file: rc %d, stdout %q, stderr %q", rc, out.String(), errb.String())
	}
	if after := italianScores(); after != embedded {
		t.Errorf("bench --eval-file left another evaluation in use: scores %v, embedded %v", after, embedded)
	}
	for _, args := range [][]string{
		{"bench", "--eval-file", games},
		{"bench", "--eval-file", filepath.Join(dir, "missing.dw")},
		{"tune", "fit", "--variant", "italian", "--data", deep, "--out", again + "3", "--init", netFile},
	} {
		out.Reset()
		errb.Reset()
		if rc := run(args, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "eval") && !strings.Contains(errb.String(), "no such file") {
			t.Errorf("%v: rc %d, stderr %q", args, rc, errb.String())
		}
	}
}

// italianScores evaluates the first positions of a fixed Italian game
// with the evaluation in use.
func italianScores() [8]int {
	v := movegen.Italian
	p := v.Start()
	var out [8]int
	for i := range out {
		var ml movegen.MoveList
		v.Generate(&p, &ml)
		if ml.N == 0 {
			break
		}
		p.Play(ml.Moves[(i*7)%ml.N])
		out[i] = eval.Evaluate(v, &p)
	}
	return out
}

// TestTunePositionsEndToEnd runs the positions pipeline at a tiny budget:
// a part of four games, its merge, a fit of two output buckets on it
// (written as a version 4 weights file that loads), and the refusal of a
// bucket count out of range, naming the flag.
func TestTunePositionsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	part, data, net := filepath.Join(dir, "it.part"), filepath.Join(dir, "it.pos"), filepath.Join(dir, "it.dw")
	for _, args := range [][]string{
		{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "4", "--nodes", "200", "--out", part},
		{"tune", "merge", "--out", data, part},
		{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", "16", "--tempo", "--buckets", "2", "--epochs", "1", "--out", net},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 0 || out.Len() != 0 {
			t.Fatalf("%v: rc %d, stdout %q, stderr %q", args, rc, out.String(), errb.String())
		}
		if args[1] == "fit" && !strings.Contains(errb.String(), "16 hidden units, 2 output buckets") {
			t.Errorf("fit's progress does not say its buckets: %q", errb.String())
		}
	}
	f, err := os.Open(net)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := eval.LoadWeights(movegen.Italian, f); err != nil {
		t.Fatal(err)
	}
	defer eval.ResetWeights(movegen.Italian)
	if nw := eval.ActiveNet(movegen.Italian).Weights(); nw.Buckets != 2 || len(nw.W2) != 32 {
		t.Fatalf("loaded %d buckets, %d output weights; want 2, 32", nw.Buckets, len(nw.W2))
	}
	var out, errb bytes.Buffer
	rc := run([]string{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", "16", "--buckets", "9", "--out", filepath.Join(dir, "x.dw")}, nil, &out, &errb)
	if rc != 2 || !strings.Contains(errb.String(), "--buckets") {
		t.Fatalf("--buckets 9: rc %d, stderr %q", rc, errb.String())
	}
	// --future N relabels the scores: the same positions, other labels;
	// a negative N is refused, the flag named.
	future := filepath.Join(dir, "future.pos")
	if rc := run([]string{"tune", "merge", "--out", future, "--future", "4", part}, nil, &out, &errb); rc != 0 {
		t.Fatalf("merge --future 4: rc %d, stderr %q", rc, errb.String())
	}
	a, b := readFile(t, data), readFile(t, future)
	ha, hb := bytes.IndexByte(a, '\n'), bytes.IndexByte(b, '\n')
	if !bytes.HasSuffix(b[:hb], []byte(" future=4")) || len(a)-ha != len(b)-hb || bytes.Equal(a[ha:], b[hb:]) {
		t.Fatalf("merge --future 4: header %q, %d bytes of records; the plain merge %d: want future=4, as many records, other labels", b[:hb], len(b)-hb, len(a)-ha)
	}
	errb.Reset()
	if rc := run([]string{"tune", "merge", "--out", future, "--future", "-1", part}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "--future") {
		t.Fatalf("--future -1: rc %d, stderr %q", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "merge", "--out", filepath.Join(dir, "again.pos"), "--future", "4", data}, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "merged file") {
		t.Fatalf("--future on a merged file: rc %d, stderr %q", rc, errb.String())
	}
	// A fit from the network just made continues it (the start's loss is
	// said); one from a file that is not a network of this shape is
	// refused, the file named.
	errb.Reset()
	rc = run([]string{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", "16", "--tempo", "--buckets", "2", "--epochs", "1",
		"--rate", "0.0005", "--init", net, "--out", filepath.Join(dir, "more.dw")}, nil, &out, &errb)
	if rc != 0 || !strings.Contains(errb.String(), "the --init network: validation loss") {
		t.Fatalf("--init %s: rc %d, stderr %q", net, rc, errb.String())
	}
	// The same command again finds the finished fit's checkpoint and says
	// that it continues it rather than starting from --init.
	errb.Reset()
	rc = run([]string{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", "16", "--tempo", "--buckets", "2", "--epochs", "1",
		"--rate", "0.0005", "--init", net, "--out", filepath.Join(dir, "more.dw")}, nil, &out, &errb)
	if rc != 0 || !strings.Contains(errb.String(), "continuing the fit in") || strings.Contains(errb.String(), "the --init network") {
		t.Fatalf("--init again with a checkpoint: rc %d, stderr %q", rc, errb.String())
	}
	for _, c := range []struct {
		init, hidden, want string
	}{
		{net, "32", "hidden units"},
		{data, "16", "not a weights file"},
		{filepath.Join(dir, "none.dw"), "16", "none.dw"},
	} {
		errb.Reset()
		rc := run([]string{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", c.hidden, "--tempo", "--buckets", "2", "--epochs", "1",
			"--init", c.init, "--out", filepath.Join(dir, "bad.dw")}, nil, &out, &errb)
		if rc == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("--init %s --hidden %s: rc %d, stderr %q; want an error naming %q", c.init, c.hidden, rc, errb.String(), c.want)
		}
	}
}

// TestTuneMergeTables: tune merge --egdb-path gives every position the
// tables hold their exact value (the result for White, a score of ±2046 or
// 0) and says how many in the header and on stderr; the others keep the
// game's labels. English games of 3 pieces against 3-piece tables: every
// position is in them.
func TestTuneMergeTables(t *testing.T) {
	dir := t.TempDir()
	tables, part, data := filepath.Join(dir, "egdb"), filepath.Join(dir, "en.part"), filepath.Join(dir, "en.pos")
	for _, args := range [][]string{
		{"egdb", "build", "--variant", "english", "--pieces", "3", "--dir", tables},
		{"tune", "gen", "--format", "positions", "--variant", "english", "--games", "6", "--nodes", "200", "--random-plies", "0", "--sparse", "3", "--out", part},
		{"tune", "merge", "--out", data, "--egdb-path", tables, part},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 0 || (out.Len() != 0 && args[0] == "tune") {
			t.Fatalf("%v: rc %d, stdout %q, stderr %q", args, rc, out.String(), errb.String())
		}
		if args[1] == "merge" && !strings.Contains(errb.String(), "labelled by the tables") {
			t.Errorf("merge does not say what the tables labelled: %q", errb.String())
		}
	}
	// A part of sparse starts has no game boundaries --future could find.
	var fout, ferr bytes.Buffer
	if rc := run([]string{"tune", "merge", "--out", filepath.Join(dir, "f.pos"), "--future", "4", part}, nil, &fout, &ferr); rc != 1 || !strings.Contains(ferr.String(), "sparse starts") {
		t.Errorf("--future on a sparse part: rc %d, stderr %q", rc, ferr.String())
	}
	db, err := egdb.New(16)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := db.LoadPresent(movegen.English, tables); n != 3 || err != nil {
		t.Fatalf("tables: %d pieces, %v", n, err)
	}
	pr, err := tune.OpenPositions(data)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	if !strings.Contains(pr.Header.String(), " tables=") {
		t.Errorf("header %q: no tables=", pr.Header.String())
	}
	var r tune.Record
	wins := 0
	for i := int64(0); i < pr.Len(); i++ {
		if err := pr.Next(&r); err != nil {
			t.Fatal(err)
		}
		w, ok := db.Probe(movegen.English, &r.Pos)
		if !ok {
			t.Fatalf("record %d: %s not in the 3-piece tables", i, movegen.English.FEN(&r.Pos))
		}
		want := int(w)
		if r.Pos.Side == movegen.Black {
			want = -want
		}
		if r.Result != want || r.Score != want*tune.MaxLabelScore {
			t.Fatalf("record %d: %s: result %d score %d, want %d and %d", i, movegen.English.FEN(&r.Pos), r.Result, r.Score, want, want*tune.MaxLabelScore)
		}
		if want != 0 {
			wins++
		}
	}
	if pr.Len() == 0 || wins == 0 {
		t.Errorf("%d records, %d won or lost: want some of each", pr.Len(), wins)
	}
	var out, errb bytes.Buffer
	if rc := run([]string{"tune", "merge", "--out", data, "--egdb-path", filepath.Join(dir, "none"), part}, nil, &out, &errb); rc == 0 || !strings.Contains(errb.String(), "--egdb-path") {
		t.Errorf("merge with no tables there: rc %d, stderr %q", rc, errb.String())
	}
}

// TestTunePatternsEndToEnd: tables fitted over the network of --eval-file
// (validated on another file) make a weights file of version 5 that loads
// and evaluates as the network plus the tables; bad flags and files are
// refused with a reason.
func TestTunePatternsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	var parts []string
	for k := 1; k <= 2; k++ {
		part, data := filepath.Join(dir, "it"+string(rune('0'+k))+".part"), filepath.Join(dir, "it"+string(rune('0'+k))+".pos")
		for _, args := range [][]string{
			{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "6", "--nodes", "200", "--shard", string(rune('0'+k)) + "/2", "--out", part},
			{"tune", "merge", "--out", data, part},
		} {
			var out, errb bytes.Buffer
			if rc := run(args, nil, &out, &errb); rc != 0 || out.Len() != 0 {
				t.Fatalf("%v: rc %d, stdout %q, stderr %q", args, rc, out.String(), errb.String())
			}
		}
		parts = append(parts, data)
	}
	net, pat := filepath.Join(dir, "net.dw"), filepath.Join(dir, "pat.dw")
	var out, errb bytes.Buffer
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", parts[0], "--valid", parts[1], "--hidden", "16", "--tempo", "--epochs", "1", "--out", net}, nil, &out, &errb); rc != 0 {
		t.Fatalf("fit: rc %d, %s", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "patterns", "--data", parts[0], "--valid", parts[1], "--eval-file", net, "--epochs", "2", "--out", pat}, nil, &out, &errb); rc != 0 || out.Len() != 0 {
		t.Fatalf("patterns: rc %d, stdout %q, stderr %q", rc, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "patterns over 25 windows") || !strings.Contains(errb.String(), "epoch 2/2") {
		t.Errorf("patterns' progress: %q", errb.String())
	}
	defer eval.ResetWeights(movegen.Italian)
	b, err := os.ReadFile(pat)
	if err != nil {
		t.Fatal(err)
	}
	if b[4] != eval.PatternVersion {
		t.Fatalf("version %d, want %d", b[4], eval.PatternVersion)
	}
	if err := eval.LoadWeights(movegen.Italian, bytes.NewReader(b)); err != nil {
		t.Fatal(err)
	}
	nw := eval.ActiveNet(movegen.Italian).Weights()
	if nw.Hidden != 16 || nw.T == nil || len(nw.Pats) != 1 || len(nw.Pats[0].W) != 25*eval.PatConfigs*2 {
		t.Fatalf("loaded %d hidden units, tempo %v, %d sets of pattern weights", nw.Hidden, nw.T != nil, len(nw.Pats))
	}
	// The network fitted again over the tables (--patterns), which come
	// through unchanged; a file without tables is refused there.
	again := filepath.Join(dir, "again.dw")
	errb.Reset()
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", parts[0], "--valid", parts[1], "--hidden", "16", "--tempo", "--epochs", "1",
		"--init", pat, "--patterns", pat, "--rate", "0.01", "--out", again}, nil, &out, &errb); rc != 0 || !strings.Contains(errb.String(), "hand-written and the tables") {
		t.Fatalf("fit --patterns: rc %d, %s", rc, errb.String())
	}
	b2, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	nw2, err := eval.ReadNet(movegen.Italian, bytes.NewReader(b2))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.EqualFunc(nw2.Pats, nw.Pats, samePatSet) || slices.Equal(nw2.W2, nw.W2) {
		t.Errorf("fit --patterns: tables kept %v, output layer changed %v", slices.EqualFunc(nw2.Pats, nw.Pats, samePatSet), !slices.Equal(nw2.W2, nw.W2))
	}
	// Windows of 4 x 6 (--shape): a version 6 file of 6 windows of 3^12
	// configurations, whose shape the network's fit over them keeps.
	pat46, again46 := filepath.Join(dir, "pat46.dw"), filepath.Join(dir, "again46.dw")
	errb.Reset()
	if rc := run([]string{"tune", "patterns", "--shape", "4x6", "--data", parts[0], "--valid", parts[1], "--eval-file", net, "--epochs", "1", "--out", pat46}, nil, &out, &errb); rc != 0 || !strings.Contains(errb.String(), "6 windows of 4x6") {
		t.Fatalf("patterns --shape 4x6: rc %d, %s", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", parts[0], "--valid", parts[1], "--hidden", "16", "--tempo", "--epochs", "1",
		"--init", pat46, "--patterns", pat46, "--rate", "0.01", "--out", again46}, nil, &out, &errb); rc != 0 {
		t.Fatalf("fit --patterns (4x6): rc %d, %s", rc, errb.String())
	}
	for _, f := range []string{pat46, again46} {
		b := readFile(t, f)
		nw, err := eval.ReadNet(movegen.Italian, bytes.NewReader(b))
		if err != nil || b[4] != eval.PatShapeVersion || len(nw.Pats) != 1 || nw.Pats[0].Shape != eval.PatTall || len(nw.Pats[0].W) != 6*eval.PatTall.Configs()*2 {
			t.Fatalf("%s: version %d, %v, err %v", f, b[4], nw, err)
		}
	}
	// A second set beside the first (--keep): 4 x 6 tables fitted over the
	// network and its 4 x 4 ones, written with both (version 7), the 4 x 4
	// set as it was; the network's fit over them keeps both.
	both, againBoth := filepath.Join(dir, "both.dw"), filepath.Join(dir, "again-both.dw")
	errb.Reset()
	if rc := run([]string{"tune", "patterns", "--shape", "4x6", "--keep", "--data", parts[0], "--valid", parts[1], "--eval-file", pat, "--epochs", "1", "--batch", "32", "--out", both}, nil, &out, &errb); rc != 0 || !strings.Contains(errb.String(), "with the network's 4x4") {
		t.Fatalf("patterns --keep: rc %d, %s", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", parts[0], "--valid", parts[1], "--hidden", "16", "--tempo", "--epochs", "1",
		"--init", both, "--patterns", both, "--rate", "0.01", "--out", againBoth}, nil, &out, &errb); rc != 0 {
		t.Fatalf("fit --patterns (two sets): rc %d, %s", rc, errb.String())
	}
	var bothSets []eval.PatSet
	for _, f := range []string{both, againBoth} {
		b := readFile(t, f)
		nwb, err := eval.ReadNet(movegen.Italian, bytes.NewReader(b))
		if err != nil || b[4] != eval.PatSetsVersion || len(nwb.Pats) != 2 || !samePatSet(nwb.Pats[0], nw.Pats[0]) || nwb.Pats[1].Shape != eval.PatTall {
			t.Fatalf("%s: version %d, %v, err %v", f, b[4], nwb, err)
		}
		if bothSets != nil && !slices.EqualFunc(nwb.Pats, bothSets, samePatSet) {
			t.Fatalf("%s: the tables changed under the network's fit", f)
		}
		if slices.Equal(nwb.Pats[1].W, make([]int16, len(nwb.Pats[1].W))) {
			t.Fatalf("%s: every 4 x 6 weight zero", f)
		}
		bothSets = nwb.Pats
	}
	// A set fitted again in its place over the others (--keep of a shape
	// the network has): the 4 x 4 set as it was, the 4 x 6 one new.
	round2 := filepath.Join(dir, "round2.dw")
	errb.Reset()
	if rc := run([]string{"tune", "patterns", "--shape", "4x6", "--keep", "--data", parts[1], "--valid", parts[0], "--eval-file", againBoth, "--epochs", "1", "--batch", "32", "--out", round2}, nil, &out, &errb); rc != 0 || !strings.Contains(errb.String(), "with the network's 4x4") {
		t.Fatalf("patterns --keep, a second round: rc %d, %s", rc, errb.String())
	}
	nwr, err := eval.ReadNet(movegen.Italian, bytes.NewReader(readFile(t, round2)))
	if err != nil || len(nwr.Pats) != 2 || !samePatSet(nwr.Pats[0], bothSets[0]) || nwr.Pats[1].Shape != eval.PatTall || samePatSet(nwr.Pats[1], bothSets[1]) {
		t.Fatalf("a second round: err %v, %d sets (the first the same: %v; the second's shape %v, the same: %v)", err, len(nwr.Pats),
			len(nwr.Pats) > 0 && samePatSet(nwr.Pats[0], bothSets[0]), nwr.Pats[len(nwr.Pats)-1].Shape, samePatSet(nwr.Pats[len(nwr.Pats)-1], bothSets[1]))
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"tune", "patterns", "--data", parts[0], "--out", pat, "--shape", "3x3"}, "3x3"},
		{[]string{"tune", "fit", "--variant", "italian", "--data", parts[0], "--hidden", "16", "--patterns", net, "--out", again}, "no pattern tables"},
		{[]string{"tune", "patterns", "--out", pat}, "--data and --out"},
		{[]string{"tune", "patterns", "--data", parts[0], "--out", pat, "--eval-file", filepath.Join(dir, "none.dw")}, "none.dw"},
		{[]string{"tune", "patterns", "--data", parts[0], "--out", pat, "--valid", filepath.Join(dir, "none.pos")}, "none.pos"},
		{[]string{"tune", "patterns", "--data", parts[0], "--out", pat, "--epochs", "0"}, "epochs"},
	} {
		errb.Reset()
		if rc := run(c.args, nil, &out, &errb); rc == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: rc %d, stderr %q, want it to name %q", c.args, rc, errb.String(), c.want)
		}
	}
}

// samePatSet says whether two sets of pattern tables are the same.
func samePatSet(a, b eval.PatSet) bool { return a.Shape == b.Shape && slices.Equal(a.W, b.W) }

// readFile returns the bytes of the file at path, failing t if it cannot.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTuneStats: tune stats prints a positions file's header and its
// records by pieces, the rows adding up to the total; a file that is not
// one is named in the error, and no file at all is a usage error.
func TestTuneStats(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "it.part")
	var out, errb bytes.Buffer
	if rc := run([]string{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "2", "--nodes", "200", "--out", part}, nil, &out, &errb); rc != 0 {
		t.Fatalf("gen: rc %d, %s", rc, errb.String())
	}
	out.Reset()
	errb.Reset()
	if rc := run([]string{"tune", "stats", part}, nil, &out, &errb); rc != 0 || errb.Len() != 0 {
		t.Fatalf("stats: rc %d, stderr %q", rc, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) < 4 || !strings.Contains(lines[0], "variant=italian") || !strings.HasPrefix(lines[3], "    ") {
		t.Fatalf("stats printed %q", out.String())
	}
	var total, sum int
	fmt.Sscanf(lines[1], "%d records", &total)
	for _, l := range lines[3:] {
		var n, recs int
		if _, err := fmt.Sscanf(l, "%d %d", &n, &recs); err != nil {
			t.Fatalf("row %q: %v", l, err)
		}
		sum += recs
	}
	if total == 0 || sum != total {
		t.Fatalf("rows add up to %d of %d records", sum, total)
	}
	bad := filepath.Join(dir, "bad.pos")
	os.WriteFile(bad, []byte("not positions\n"), 0o644)
	errb.Reset()
	if rc := run([]string{"tune", "stats", bad}, nil, &out, &errb); rc != 1 || !strings.Contains(errb.String(), "bad.pos") {
		t.Fatalf("a bad file: rc %d, stderr %q", rc, errb.String())
	}
	errb.Reset()
	if rc := run([]string{"tune", "stats"}, nil, &out, &errb); rc != 2 {
		t.Fatalf("no file: rc %d, stderr %q", rc, errb.String())
	}
}

// TestTuneGenStarts: tune gen --starts plays games from a positions
// file's positions of --start-pieces into a part named for them, and a
// bad range, a missing file, --sparse beside it or --start-pieces without
// it are refused by name.
func TestTuneGenStarts(t *testing.T) {
	dir := t.TempDir()
	src, part := filepath.Join(dir, "src.part"), filepath.Join(dir, "st.part")
	var out, errb bytes.Buffer
	if rc := run([]string{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "2", "--nodes", "200", "--out", src}, nil, &out, &errb); rc != 0 {
		t.Fatalf("gen: rc %d, %s", rc, errb.String())
	}
	errb.Reset()
	args := []string{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "2", "--nodes", "200", "--starts", src, "--start-pieces", "8-20", "--out", part}
	if rc := run(args, nil, &out, &errb); rc != 0 || out.Len() != 0 {
		t.Fatalf("gen --starts: rc %d, stdout %q, stderr %q", rc, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(part); !bytes.Contains(b[:200], []byte(" starts=src.part:8-20:")) {
		t.Fatalf("the part's header does not name its starts: %q", b[:100])
	}
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--starts", src, "--start-pieces", "9"}, "--start-pieces"},
		{[]string{"--starts", src, "--start-pieces", "12-8"}, "--start-pieces"},
		{[]string{"--starts", filepath.Join(dir, "none.pos")}, "--starts"},
		{[]string{"--starts", src, "--sparse", "6"}, "not both"},
		{[]string{"--start-pieces", "8-12"}, "without --starts"},
	} {
		errb.Reset()
		a := append([]string{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "1", "--out", filepath.Join(dir, "x.part")}, c.flags...)
		if rc := run(a, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: rc %d, stderr %q; want 2 naming %s", c.flags, rc, errb.String(), c.want)
		}
	}
}

// TestTuneFitThreats: tune fit --threats writes a network with threat
// inputs (a version 8 file that loads); from an --init network without
// them it starts as that network (the same validation loss at the start);
// a threat network continued without --threats, and --threats on a games
// file, are refused, the flag named.
func TestTuneFitThreats(t *testing.T) {
	dir := t.TempDir()
	data := smallPositions(t, dir)
	plain, thr := filepath.Join(dir, "plain.dw"), filepath.Join(dir, "thr.dw")
	fit := func(want int, extra ...string) string {
		t.Helper()
		var out, errb bytes.Buffer
		args := append([]string{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", "16", "--tempo", "--epochs", "1"}, extra...)
		if rc := run(args, nil, &out, &errb); rc != want || out.Len() != 0 {
			t.Fatalf("%v: rc %d (want %d), stdout %q, stderr %q", args, rc, want, out.String(), errb.String())
		}
		return errb.String()
	}
	fit(0, "--out", plain)
	fit(0, "--threats", "--out", thr)
	b := readFile(t, thr)
	nw, err := eval.ReadNet(movegen.Italian, bytes.NewReader(b))
	if err != nil || b[4] != eval.ThreatVersion || !nw.Threats || len(nw.W1) != (eval.NetKinds+eval.NetThreatKinds)*32*16 {
		t.Fatalf("--threats: version %d, threats %v, %d first-layer weights (%v); want version %d, threats, %d",
			b[4], nw != nil && nw.Threats, func() int {
				if nw == nil {
					return 0
				}
				return len(nw.W1)
			}(), err, eval.ThreatVersion, (eval.NetKinds+eval.NetThreatKinds)*32*16)
	}
	initLoss := func(s string) string {
		i := strings.Index(s, "the --init network: validation loss ")
		if i < 0 {
			t.Fatalf("no --init loss in %q", s)
		}
		return strings.Fields(s[i+len("the --init network: validation loss "):])[0]
	}
	a := initLoss(fit(0, "--init", plain, "--rate", "0.0005", "--out", filepath.Join(dir, "a.dw")))
	c := initLoss(fit(0, "--init", plain, "--threats", "--rate", "0.0005", "--out", filepath.Join(dir, "c.dw")))
	if a != c {
		t.Errorf("the --init network's loss: %s without threat inputs, %s with them from zero; want the same", a, c)
	}
	if s := fit(1, "--init", thr, "--out", filepath.Join(dir, "d.dw")); !strings.Contains(s, "--threats") {
		t.Errorf("a threat network continued without --threats: %q", s)
	}
	var out, errb bytes.Buffer
	games := filepath.Join(dir, "games.txt")
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", games, "--threats", "--out", filepath.Join(dir, "e.dw")}, nil, &out, &errb); rc != 2 || !strings.Contains(errb.String(), "--threats") {
		t.Errorf("--threats on a games file: rc %d, stderr %q", rc, errb.String())
	}
}

// TestTuneLoss: tune loss prints a file's losses on a positions file, the
// embedded evaluation's and --eval-file's (not the same), one line for
// each λ asked; bad flags and a bad weights file are refused, named.
func TestTuneLoss(t *testing.T) {
	dir := t.TempDir()
	data, net := smallPositions(t, dir), filepath.Join(dir, "it.dw")
	var out, errb bytes.Buffer
	if rc := run([]string{"tune", "fit", "--variant", "italian", "--data", data, "--hidden", "16", "--epochs", "1", "--out", net}, nil, &out, &errb); rc != 0 {
		t.Fatalf("tune fit: rc %d, stderr %q", rc, errb.String())
	}
	loss := func(extra ...string) []string {
		t.Helper()
		var out, errb bytes.Buffer
		args := append([]string{"tune", "loss", "--data", data, "--k", "180"}, extra...)
		if rc := run(args, nil, &out, &errb); rc != 0 || errb.Len() != 0 {
			t.Fatalf("%v: rc %d, stderr %q", args, rc, errb.String())
		}
		return strings.Split(strings.TrimSpace(out.String()), "\n")
	}
	emb := loss()
	if len(emb) != 4 || !strings.HasPrefix(emb[0], "embedded on ") || !strings.HasPrefix(emb[1], "lambda 1: loss 0.") ||
		!strings.HasPrefix(emb[2], "lambda 0.5: loss 0.") || !strings.HasPrefix(emb[3], "lambda 0: loss 0.") {
		t.Fatalf("tune loss: %q", emb)
	}
	mine := loss("--eval-file", net, "--lambda", "1")
	if len(mine) != 2 || !strings.HasPrefix(mine[0], net+" on ") || mine[1] == emb[1] {
		t.Errorf("tune loss --eval-file: %q; the embedded file's: %q", mine, emb[1])
	}
	for _, c := range []struct {
		args []string
		rc   int
		want string
	}{
		{[]string{"tune", "loss"}, 2, "--data"},
		{[]string{"tune", "loss", "--data", data, "--lambda", "1,2"}, 2, "--lambda"},
		{[]string{"tune", "loss", "--data", data, "--k", "-1"}, 2, "--k"},
		{[]string{"tune", "loss", "--data", data, "--eval-file", data}, 1, "--eval-file"},
		{[]string{"tune", "loss", "--data", filepath.Join(dir, "none.pos")}, 1, "none.pos"},
	} {
		var out, errb bytes.Buffer
		if rc := run(c.args, nil, &out, &errb); rc != c.rc || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: rc %d, stderr %q; want %d and %q", c.args, rc, errb.String(), c.rc, c.want)
		}
	}
}

// smallPositions makes in dir a positions file of four Italian games at
// 200 nodes a move (tune gen, then tune merge) and returns its path.
func smallPositions(t *testing.T, dir string) string {
	t.Helper()
	part, data := filepath.Join(dir, "it.part"), filepath.Join(dir, "it.pos")
	for _, args := range [][]string{
		{"tune", "gen", "--format", "positions", "--variant", "italian", "--games", "4", "--nodes", "200", "--out", part},
		{"tune", "merge", "--out", data, part},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 0 {
			t.Fatalf("%v: rc %d, stderr %q", args, rc, errb.String())
		}
	}
	return data
}

// TestTuneGenRandomMovesRefused: a --random-moves outside 0..50 is refused,
// naming the flag, in both formats, before anything is written.
func TestTuneGenRandomMovesRefused(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"tune", "gen", "--variant", "italian", "--out", filepath.Join(dir, "g.games"), "--random-moves", "51"},
		{"tune", "gen", "--format", "positions", "--variant", "italian", "--out", filepath.Join(dir, "p.part"), "--random-moves", "-1"},
	} {
		var out, errb bytes.Buffer
		if rc := run(args, nil, &out, &errb); rc != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "--random-moves") {
			t.Errorf("%v: rc %d, stdout %q, stderr %q", args, rc, out.String(), errb.String())
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written: %v", ents)
	}
}
