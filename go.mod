module github.com/lite-sandbox/lite-sandbox

go 1.26.0

require (
	github.com/alecthomas/kong v1.17.0
	github.com/creack/pty v1.1.24
	github.com/jotaen/kong-completion v0.0.4
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/posener/complete v1.2.3
	github.com/rogpeppe/go-internal v1.16.0
	golang.org/x/net v0.46.0
	golang.org/x/sys v0.50.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/hashicorp/errwrap v1.1.0 // indirect
	github.com/hashicorp/go-multierror v1.1.1 // indirect
	github.com/landlock-lsm/go-landlock v0.11.2 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/riywo/loginshell v0.0.0-20200815045211-7d26008be1ab // indirect
	golang.org/x/tools v0.38.0 // indirect
	kernel.org/pub/linux/libs/security/libcap/psx v1.2.78 // indirect
)
