// Package niltest checks, for the tests of the library's packages, that no
// exported method panics on a nil or zero-value receiver (issue 8, item 3).
//
// A package's test lists every exported type that has methods with pointer
// receivers in a registry (Types) and calls Check. Check scans the
// package's non-test Go files (go/parser) for such types and fails when one
// is missing from the registry, so a new type cannot be forgotten; then it
// calls every exported method of every registered type through reflection
// on a nil receiver and, when the registry gives one, on a zero-value
// receiver, with zero-valued arguments (nil slices, pointers, maps, funcs
// and interfaces, zero numbers and structs, context.Background() for a
// context.Context), and fails on any panic, naming the type and method.
package niltest

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// Type is one registered type.
type Type struct {
	// Nil is a typed nil pointer of the type, e.g. (*tilecache.Cache)(nil).
	Nil any
	// Zero, when not nil, is a pointer to a zero value of the type, e.g.
	// &tilecache.Cache{}: its methods are called too. Leave it nil for a
	// type whose zero value is not meant to be used (say why in the test).
	Zero any
}

// Types is a package's registry: type name (unqualified) to its values.
type Types map[string]Type

// Check fails t when a type of the package in dir with exported
// pointer-receiver methods is missing from types (or types names one that
// is not there), and when any exported method of a registered type panics
// on the nil receiver or on the zero receiver.
func Check(t *testing.T, dir string, types Types) {
	t.Helper()
	found, err := PointerTypes(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range found {
		if _, ok := types[name]; !ok {
			t.Errorf("exported type %s has pointer-receiver methods but is missing from the nil-receiver registry", name)
		}
	}
	names := make([]string, 0, len(types))
	for name := range types {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !slices.Contains(found, name) {
			t.Errorf("registry names %s, which is not an exported type with pointer-receiver methods of %s", name, dir)
			continue
		}
		ty := types[name]
		nv := reflect.ValueOf(ty.Nil)
		if nv.Kind() != reflect.Pointer || !nv.IsNil() || nv.Type().Elem().Name() != name {
			t.Errorf("registry %s: Nil is %T, want (*%s)(nil)", name, ty.Nil, name)
			continue
		}
		for _, p := range Panics(nv, true) {
			t.Errorf("nil *%s: %s", name, p)
		}
		if ty.Zero == nil {
			continue
		}
		zv := reflect.ValueOf(ty.Zero)
		if zv.Type() != nv.Type() || zv.IsNil() {
			t.Errorf("registry %s: Zero is %T, want &%s{}", name, ty.Zero, name)
			continue
		}
		for _, p := range Panics(zv, false) {
			t.Errorf("zero %s: %s", name, p)
		}
	}
}

// Panics calls every exported method of the pointer recv with zero-valued
// arguments and returns one line per method that panicked ("Method:
// panic value"). With skipValue, methods declared on the value receiver
// are not called (on a nil pointer Go itself panics before they run).
func Panics(recv reflect.Value, skipValue bool) []string {
	var out []string
	pt := recv.Type()
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		if skipValue {
			if _, ok := pt.Elem().MethodByName(m.Name); ok {
				continue
			}
		}
		if msg := call(recv.Method(i)); msg != "" {
			out = append(out, m.Name+": "+msg)
		}
	}
	return out
}

var ctxType = reflect.TypeFor[context.Context]()

// call calls the method value fn with zero arguments on a goroutine of
// its own and returns the panic, if any, or a hang, as text.
func call(fn reflect.Value) (msg string) {
	ft := fn.Type()
	n := ft.NumIn()
	if ft.IsVariadic() {
		n-- // no variadic arguments
	}
	args := make([]reflect.Value, n)
	for i := range args {
		in := ft.In(i)
		if in == ctxType {
			args[i] = reflect.ValueOf(context.Background())
		} else {
			args[i] = reflect.Zero(in)
		}
	}
	done := make(chan string, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Sprintf("panic: %v", r)
			}
		}()
		fn.Call(args)
		done <- ""
	}()
	select {
	case msg = <-done:
		return msg
	case <-time.After(hangAfter):
		return fmt.Sprintf("did not return within %v (an endless loop?)", hangAfter)
	}
}

// hangAfter is how long call waits for a method with zero arguments to
// return before it reports a hang (generous: such calls take microseconds).
const hangAfter = 30 * time.Second

// PointerTypes lists, sorted, the exported type names of the package in
// dir (its non-test .go files) that have at least one exported method with
// a pointer receiver.
func PointerTypes(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("niltest: scanning %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("niltest: scanning %s: %w", dir, err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 || !fd.Name.IsExported() {
				continue
			}
			star, ok := fd.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			x := star.X
			switch g := x.(type) {
			case *ast.IndexExpr:
				x = g.X
			case *ast.IndexListExpr:
				x = g.X
			}
			id, ok := x.(*ast.Ident)
			if ok && id.IsExported() && !slices.Contains(out, id.Name) {
				out = append(out, id.Name)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
