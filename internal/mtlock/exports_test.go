package mtlock

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// unguarded are the C entries that must not take the lock.
var unguarded = map[string]string{
	"gompi_Abort": "the job must end even while another thread holds the lock",
}

// Every //export gompi_* function in capi starts with the MULTIPLE guard
// (if mtlock.On { mtlock.Lock(); defer mtlock.Unlock() }): an entry that
// forgets it races the others at MPI_THREAD_MULTIPLE.
func TestEveryEntryTakesTheLock(t *testing.T) {
	files, err := filepath.Glob("../../capi/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no capi sources: %v", err)
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || !exported(fd) {
				continue
			}
			n++
			if _, ok := unguarded[fd.Name.Name]; ok {
				continue
			}
			if !guarded(fd) {
				t.Errorf("%s: %s does not start with the MULTIPLE guard", filepath.Base(f), fd.Name.Name)
			}
		}
	}
	if n < 200 {
		t.Fatalf("found only %d exported entries", n)
	}
}

func exported(fd *ast.FuncDecl) bool {
	for _, c := range fd.Doc.List {
		if strings.HasPrefix(c.Text, "//export gompi_") {
			return true
		}
	}
	return false
}

func guarded(fd *ast.FuncDecl) bool {
	if len(fd.Body.List) == 0 {
		return false
	}
	is, ok := fd.Body.List[0].(*ast.IfStmt)
	if !ok || len(is.Body.List) != 2 {
		return false
	}
	sel, ok := is.Cond.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "On" {
		return false
	}
	_, isDefer := is.Body.List[1].(*ast.DeferStmt)
	return isDefer
}
