package launcher

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseForms(t *testing.T) {
	cases := []struct {
		args []string
		want Options
	}{
		{[]string{"prog"}, Options{NP: 1, Prog: "prog", Args: []string{}}},
		{[]string{"-n", "4", "prog", "-n", "x"}, Options{NP: 4, Prog: "prog", Args: []string{"-n", "x"}}},
		{[]string{"-np", "3", "prog"}, Options{NP: 3, Prog: "prog", Args: []string{}}},
		{[]string{"--np=2", "--", "-weird-prog"}, Options{NP: 2, Prog: "-weird-prog", Args: []string{}}},
		{[]string{"-n=5", "-x", "A", "-x", "B=1=2", "--x=C=", "p"},
			Options{NP: 5, Env: []string{"A", "B=1=2", "C="}, Prog: "p", Args: []string{}}},
		{[]string{"--bind-to", "none", "--tag-output", "--timeout", "1.5", "--mpich-binary", "p", "a"},
			Options{NP: 1, BindTo: BindNone, TagOutput: true, Timeout: 1500 * time.Millisecond,
				MPICHBinary: true, Prog: "p", Args: []string{"a"}}},
		{[]string{"--mpich-binary", "--check", "p"},
			Options{NP: 1, MPICHBinary: true, Check: true, Prog: "p", Args: []string{}}},
		{[]string{"-bind-to=core", "-tag-output", "--report-bindings", "p"},
			Options{NP: 1, BindTo: BindCore, TagOutput: true, ReportBindings: true, Prog: "p", Args: []string{}}},
		{[]string{"--universe-size", "8", "-n", "2", "p"}, Options{NP: 2, UniverseSize: 8, Prog: "p", Args: []string{}}},
		{[]string{"--exec-bound", "3", "--", "/bin/echo", "hi"},
			Options{NP: 1, ExecBound: 3, Habits: Habits{ExecCPUs: []int{3}}, Prog: "/bin/echo", Args: []string{"hi"}}},
	}
	for _, c := range cases {
		got, err := Parse(c.args)
		require.NoError(t, err, "%q", c.args)
		if c.want.ExecBound == 0 {
			c.want.ExecBound = -1
		}
		assert.Equal(t, c.want, *got, "%q", c.args)
	}
}

func TestParseHelp(t *testing.T) {
	for _, a := range [][]string{{"--help"}, {"-h"}, {"-n", "2", "--help", "prog"}} {
		o, err := Parse(a)
		require.NoError(t, err)
		assert.True(t, o.Help)
	}
}

func TestParseErrors(t *testing.T) {
	bad := [][]string{
		{},
		{"-n", "2"},
		{"--check", "p"},
		{"--mpich-binary", "--check=1", "p"},
		{"-n"},
		{"-n", "0", "p"},
		{"-n", "-1", "p"},
		{"-n", "two", "p"},
		{"--bind-to", "board", "p"},
		{"--timeout", "0", "p"},
		{"--timeout", "soon", "p"},
		{"--timeout", "inf", "p"},
		{"-x", "1BAD", "p"},
		{"-x", "", "p"},
		{"--frobnicate", "p"},
		{"--tag-output=yes", "p"},
		{"--exec-bound", "x", "--", "p"},
		{"--exec-bound", "0", "-n", "2", "p"},
		{"--universe-size", "0", "p"},
		{"--universe-size", "many", "p"},
	}
	for _, a := range bad {
		_, err := Parse(a)
		assert.ErrorIs(t, err, ErrUsage, "%q", a)
	}
}
