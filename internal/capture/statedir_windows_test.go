package capture

import "testing"

func TestDefaultStateDirWindows(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"local app data", map[string]string{"LOCALAPPDATA": `C:\Users\u\AppData\Local`, "USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\mcptrail`},
		{"user profile", map[string]string{"USERPROFILE": `C:\Users\u`}, `C:\Users\u\AppData\Local\mcptrail`},
		{"mcptrail home wins", map[string]string{"MCPTRAIL_HOME": `D:\m`, "LOCALAPPDATA": `C:\l`}, `D:\m`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := StateDir(func(k string) string { return tt.env[k] })
			if err != nil || got != tt.want {
				t.Errorf("StateDir = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	if _, err := StateDir(func(string) string { return "" }); err == nil {
		t.Error("StateDir with no environment: no error")
	}
}
