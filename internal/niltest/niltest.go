// Package niltest checks, for the tests of the library's packages, that no
// exported method panics on a nil or zero-value receiver (issue 8, item 3).
//
// A package's test lists every exported type that declares methods with
// pointer receivers in a registry (Types) and calls Check. Check scans the
// package's non-test Go files (go/parser) for such types and fails when one
// is missing from the registry, so a new type cannot be forgotten; then it
// calls, through reflection, every exported pointer-receiver method each
// registered type declares on a nil receiver and, when the registry gives
// one, every exported method of its pointer method set on a zero-value
// receiver, with zero-valued arguments (nil slices, pointers, maps, funcs
// and interfaces, zero numbers and structs, context.Background() for a
// context.Context), and fails on any panic or hang, naming the type and
// method. (Methods with value receivers, and methods promoted from an
// embedded type, cannot run on a nil pointer in Go at all: they are called
// on the zero value only, and promoted ones are checked on their own type.)
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
	// Unchecked names methods that are not called, each with the reason
	// (say, an inner-loop accessor whose doc states an index precondition,
	// which panics out of range as a slice index does).
	Unchecked map[string]string
}

// Types is a package's registry: type name (unqualified) to its values.
type Types map[string]Type

// Check fails t when a type of the package in dir that declares exported
// pointer-receiver methods is missing from types (or types names one that
// is not there, or an Unchecked method that does not exist), and when any
// method of a registered type panics or hangs on the nil receiver or on
// the zero receiver.
func Check(t *testing.T, dir string, types Types) {
	t.Helper()
	declared, err := PointerMethods(dir)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for name := range declared {
		found = append(found, name)
	}
	slices.Sort(found)
	for _, name := range found {
		if _, ok := types[name]; !ok {
			t.Errorf("exported type %s has pointer-receiver methods but is missing from the nil-receiver registry", name)
		}
	}
	var names []string
	for name := range types {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		methods, ok := declared[name]
		if !ok {
			t.Errorf("registry names %s, which is not an exported type with pointer-receiver methods of %s", name, dir)
			continue
		}
		ty := types[name]
		nv := reflect.ValueOf(ty.Nil)
		if nv.Kind() != reflect.Pointer || !nv.IsNil() || nv.Type().Elem().Name() != name {
			t.Errorf("registry %s: Nil is %T, want (*%s)(nil)", name, ty.Nil, name)
			continue
		}
		for m := range ty.Unchecked {
			if _, ok := nv.Type().MethodByName(m); !ok {
				t.Errorf("registry %s: Unchecked names %s, which is not a method", name, m)
			}
		}
		skip := func(m string) bool { _, ok := ty.Unchecked[m]; return ok }
		for _, p := range Panics(nv, func(m string) bool { return !slices.Contains(methods, m) || skip(m) }) {
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
		for _, p := range Panics(zv, skip) {
			t.Errorf("zero %s: %s", name, p)
		}
	}
}

// Panics calls every exported method of the pointer recv but those skip
// reports with zero-valued arguments and returns one line per method that
// panicked or hung ("Method: panic: value").
func Panics(recv reflect.Value, skip func(method string) bool) []string {
	var out []string
	pt := recv.Type()
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		if skip(m.Name) {
			continue
		}
		if msg := call(recv.Method(i)); msg != "" {
			out = append(out, m.Name+": "+msg)
		}
	}
	return out
}

var ctxType = reflect.TypeFor[context.Context]()

// hangAfter is how long call waits for a method with zero arguments to
// return before it reports a hang (generous: such calls take microseconds).
const hangAfter = 30 * time.Second

// call calls the method value fn with zero arguments on a goroutine of
// its own and returns the panic, if any, or a hang, as text.
func call(fn reflect.Value) string {
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
	case msg := <-done:
		return msg
	case <-time.After(hangAfter):
		return fmt.Sprintf("did not return within %v (an endless loop?)", hangAfter)
	}
}

// PointerMethods returns, for every exported type of the package in dir
// (its non-test .go files) that declares exported methods with a pointer
// receiver, the names of those methods, sorted.
func PointerMethods(dir string) (map[string][]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("niltest: scanning %s: %w", dir, err)
	}
	fset := token.NewFileSet()
	out := map[string][]string{}
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
			if id, ok := x.(*ast.Ident); ok && id.IsExported() {
				out[id.Name] = append(out[id.Name], fd.Name.Name)
			}
		}
	}
	for _, ms := range out {
		slices.Sort(ms)
	}
	return out, nil
}
