package apnsemulator

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The listeners' names in serve's ports file, and the image's fixed ports inside the container.
var containerPorts = map[string]int{"http2": 2197, "admin": 8197, "device": 5223, "gateway": 2195, "feedback": 2196, "channels": 2198, "webPush": 2199, "productionHttp2": 2297}

// launcher runs the emulator: the binary as a child process or the image in a container. Either
// way the child's standard input is a pipe this process holds (serve --exit-on-stdin-close):
// when the test binary ends, killed or not, the emulator ends too.
type launcher struct {
	binary, cli, container string
	host                   string
	ports                  map[string]int
	adminToken             string
	caPath, keysDirectory  string
	logPath                string
	cmd                    *exec.Cmd
	stdin                  io.WriteCloser
	exited                 chan struct{}
}

func findBinary(given string) (string, error) {
	if given == "" {
		given = os.Getenv("APNS_EMULATOR_BIN")
	}
	if given != "" {
		if info, err := os.Stat(given); err != nil || info.Mode()&0o111 == 0 {
			return "", fmt.Errorf("APNS_EMULATOR_BIN=%s is not an executable file", given)
		}
		return given, nil
	}
	found, err := exec.LookPath("apns-emulator")
	if err != nil {
		return "", errors.New("apns-emulator is not on PATH: install it (the README's first line), set APNS_EMULATOR_BIN, or set APNS_EMULATOR_IMAGE to run the container image")
	}
	return found, nil
}

// serveArguments gives serve's flags: {"auth": "strict", "quiet": "true"} → --auth strict --quiet.
func serveArguments(options map[string]string) []string {
	var args []string
	for name, value := range options {
		flag := "--" + strings.TrimPrefix(name, "--")
		switch value {
		case "true":
			args = append(args, flag)
		case "false":
		default:
			args = append(args, flag, value)
		}
	}
	return args
}

func (l *launcher) start(name string, args []string, directory string, environment ...string) error {
	log, err := os.Create(l.logPath)
	if err != nil {
		return err
	}
	defer log.Close()
	l.cmd = exec.Command(name, args...)
	l.cmd.Stdout, l.cmd.Stderr = log, log
	l.cmd.Dir = directory
	if len(environment) > 0 {
		l.cmd.Env = append(os.Environ(), environment...)
	}
	// Its own process group: a signal the test binary's terminal sends does not reach it first.
	l.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if l.stdin, err = l.cmd.StdinPipe(); err != nil {
		return err
	}
	if err := l.cmd.Start(); err != nil {
		return err
	}
	l.exited = make(chan struct{})
	go func() { _ = l.cmd.Wait(); close(l.exited) }()
	return nil
}

func (l *launcher) hasExited() bool {
	select {
	case <-l.exited:
		return true
	default:
		return false
	}
}

func startBinary(binary, directory string, options Options) (*launcher, error) {
	l := &launcher{binary: binary, caPath: filepath.Join(directory, "certs", "ca.pem"), keysDirectory: filepath.Join(directory, "keys"),
		logPath: filepath.Join(directory, "serve.log")}
	portsFile := filepath.Join(directory, "ports.json")
	args := []string{"serve", "--ephemeral", "--exit-on-stdin-close", "--ports-file", portsFile, "--certs-dir", filepath.Join(directory, "certs"),
		"--keys", l.keysDirectory}
	for name := range containerPorts {
		switch name {
		case "webPush":
			name = "web-push"
		case "productionHttp2":
			name = "production-http2"
		}
		args = append(args, "--"+name+"-port", "0")
	}
	if options.Seed != "" {
		seed, _ := filepath.Abs(options.Seed)
		args = append(args, "--seed", seed)
	}
	args = append(args, serveArguments(options.Serve)...)
	if err := l.start(binary, args, directory); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(options.StartTimeout)
	for {
		if data, err := os.ReadFile(portsFile); err == nil {
			var found map[string]interface{}
			if err := json.Unmarshal(data, &found); err != nil {
				return nil, err
			}
			l.host, _ = found["host"].(string)
			l.ports = map[string]int{}
			for name := range containerPorts {
				number, _ := found[name].(float64)
				l.ports[name] = int(number)
			}
			// The admin token: the one given (Serve["admin-token"]), or the one serve made beyond loopback.
			l.adminToken, _ = found["adminToken"].(string)
			return l, nil
		}
		if l.hasExited() {
			return nil, fmt.Errorf("apns-emulator exited before listening:\n%s", l.log())
		}
		if time.Now().After(deadline) {
			l.stop(10 * time.Second)
			return nil, fmt.Errorf("apns-emulator did not listen within %s:\n%s", options.StartTimeout, l.log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func startContainer(image, directory string, options Options) (*launcher, error) {
	cli := os.Getenv("APNS_EMULATOR_CONTAINER_CLI")
	for _, candidate := range []string{"podman", "docker"} {
		if cli == "" {
			if found, err := exec.LookPath(candidate); err == nil {
				cli = found
			}
		}
	}
	if cli == "" {
		return nil, fmt.Errorf("APNS_EMULATOR_IMAGE=%s needs podman or docker on PATH (or APNS_EMULATOR_CONTAINER_CLI)", image)
	}
	l := &launcher{cli: cli, host: "127.0.0.1", keysDirectory: "/data/keys", caPath: filepath.Join(directory, "ca.pem"),
		logPath: filepath.Join(directory, "serve.log"), container: fmt.Sprintf("apns-emulator-%d-%d", os.Getpid(), time.Now().UnixNano())}
	args := []string{"run", "-i", "--rm", "--name", l.container}
	for _, port := range containerPorts {
		args = append(args, "-p", fmt.Sprintf("127.0.0.1::%d", port))
	}
	if options.Seed != "" {
		// A copy anyone may read: the image runs as an ordinary user, and a seed may be private to this one.
		data, err := os.ReadFile(options.Seed)
		if err != nil {
			return nil, err
		}
		seed := filepath.Join(directory, "seed-for-container")
		if err := os.WriteFile(seed, data, 0o644); err != nil {
			return nil, err
		}
		if err := os.Chmod(seed, 0o644); err != nil {
			return nil, err
		}
		args = append(args, "-v", seed+":/seed/seed.json:ro")
	}
	// The image listens on every interface, so its admin API asks for a token: the test's own
	// (Serve["admin-token"]), else one made here, given through the environment.
	serve := map[string]string{}
	for name, value := range options.Serve {
		serve[name] = value
	}
	l.adminToken = serve["admin-token"]
	delete(serve, "admin-token")
	if l.adminToken == "" {
		random := make([]byte, 32)
		if _, err := rand.Read(random); err != nil {
			return nil, err
		}
		l.adminToken = base64.RawURLEncoding.EncodeToString(random)
	}
	args = append(args, "-e", "APNS_EMULATOR_ADMIN_TOKEN")
	args = append(args, image, "serve", "--ephemeral", "--exit-on-stdin-close", "--keys", l.keysDirectory)
	if options.Seed != "" {
		args = append(args, "--seed", "/seed/seed.json")
	}
	args = append(args, serveArguments(serve)...)
	if err := l.start(cli, args, directory, "APNS_EMULATOR_ADMIN_TOKEN="+l.adminToken); err != nil {
		return nil, err
	}
	if err := l.waitForContainer(options.StartTimeout); err != nil {
		l.stop(10 * time.Second)
		return nil, err
	}
	return l, nil
}

var publishedLine = regexp.MustCompile(`^(\d+)/tcp -> .*:(\d+)$`)

func (l *launcher) waitForContainer(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		if l.hasExited() {
			return fmt.Errorf("the container ended before listening:\n%s", l.log())
		}
		if out, err := exec.Command(l.cli, "port", l.container).Output(); err == nil {
			published := map[int]int{}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if match := publishedLine.FindStringSubmatch(strings.TrimSpace(line)); match != nil {
					inside, _ := strconv.Atoi(match[1])
					outside, _ := strconv.Atoi(match[2])
					published[inside] = outside
				}
			}
			l.ports = map[string]int{}
			for name, port := range containerPorts {
				l.ports[name] = published[port]
			}
			if answer, err := http.Get(fmt.Sprintf("http://%s:%d/ca.pem", l.host, l.ports["admin"])); err == nil {
				body, _ := io.ReadAll(answer.Body)
				answer.Body.Close()
				if answer.StatusCode == 200 {
					return os.WriteFile(l.caPath, body, 0o644)
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the container did not answer within %s:\n%s", timeout, l.log())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (l *launcher) log() string {
	data, _ := os.ReadFile(l.logPath)
	return string(data)
}

// command runs another apns-emulator command (keys create) beside the server.
func (l *launcher) command(args ...string) ([]byte, error) {
	if l.cli != "" {
		return exec.Command(l.cli, append([]string{"exec", l.container, "apns-emulator"}, args...)...).CombinedOutput()
	}
	return exec.Command(l.binary, args...).CombinedOutput()
}

// fetch copies a file the emulator wrote to a path this machine reads.
func (l *launcher) fetch(path, local string) (string, error) {
	if l.cli == "" {
		return path, nil
	}
	if out, err := exec.Command(l.cli, "cp", l.container+":"+path, local).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s cp %s: %s", l.cli, path, out)
	}
	return local, nil
}

func (l *launcher) stop(timeout time.Duration) {
	if l.hasExited() {
		return
	}
	if l.cli != "" {
		_ = exec.Command(l.cli, "stop", "-t", strconv.Itoa(int(timeout.Seconds())), l.container).Run()
	} else {
		_ = l.cmd.Process.Signal(syscall.SIGTERM)
	}
	select {
	case <-l.exited:
	case <-time.After(timeout):
		_ = l.cmd.Process.Kill()
		<-l.exited
	}
}
