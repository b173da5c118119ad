// Integration tests with gocql (Debian golang-github-gocql-gocql-dev), the Go
// driver Azure's Cosmos DB samples use: TLS with the exported CA, password
// auth, protocol negotiation, the data models, paging, unlogged batches,
// RequestCharge and schema metadata. Each run starts its own emulator on a
// free port (EMULATOR_BIN).
package gocql_test

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

const (
	account = "localhost"
	key     = "C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw=="
)

var (
	port    int
	caPool  *x509.CertPool
	session *gocql.Session
)

// startEmulator runs the binary with --port 0 and waits for its "listening on" line
// (logged once the port accepts, after storage is recovered).
func startEmulator(dataDir string) (*exec.Cmd, int, error) {
	bin := os.Getenv("EMULATOR_BIN")
	if bin == "" {
		return nil, 0, fmt.Errorf("set EMULATOR_BIN")
	}
	cmd := exec.Command(bin, "--port", "0", "--data-dir", dataDir, "--admin-port", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, 0, err
	}
	if err := cmd.Start(); err != nil {
		return nil, 0, err
	}
	re := regexp.MustCompile(`listening on [^ ]*:(\d+)`)
	found := make(chan int, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sent := false
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil && !sent {
				var p int
				fmt.Sscanf(m[1], "%d", &p)
				found <- p
				sent = true
			}
		}
	}()
	select {
	case p := <-found:
		return cmd, p, nil
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		return nil, 0, fmt.Errorf("emulator did not start")
	}
}

func cluster(password string) *gocql.ClusterConfig {
	c := gocql.NewCluster("127.0.0.1")
	c.Port = port
	c.SslOpts = &gocql.SslOptions{Config: &tls.Config{RootCAs: caPool, ServerName: "localhost"}}
	c.Authenticator = gocql.PasswordAuthenticator{Username: account, Password: password}
	c.Consistency = gocql.Quorum
	c.Timeout = 10 * time.Second
	c.ConnectTimeout = 10 * time.Second
	return c
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gocql-emu")
	if err != nil {
		panic(err)
	}
	cmd, p, err := startEmulator(dir)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	port = p
	pem, err := exec.Command(os.Getenv("EMULATOR_BIN"), "certs", "export", "--data-dir", dir).Output()
	if err != nil {
		fmt.Println("certs export:", err)
		os.Exit(1)
	}
	caPool = x509.NewCertPool()
	caPool.AppendCertsFromPEM(pem)
	session, err = cluster(key).CreateSession()
	code := 1
	if err != nil {
		fmt.Println("connect:", err)
	} else {
		code = m.Run()
		session.Close()
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		fmt.Println("emulator exit:", err)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func charge(t *testing.T, payload map[string][]byte) float64 {
	t.Helper()
	b, ok := payload["RequestCharge"]
	if !ok || len(b) != 8 {
		t.Fatalf("no 8-byte RequestCharge in %v", payload)
	}
	return math.Float64frombits(binary.BigEndian.Uint64(b))
}

func TestWrongKeyIsRefused(t *testing.T) {
	c := cluster("not-the-key")
	c.ReconnectionPolicy = &gocql.ConstantReconnectionPolicy{MaxRetries: 0}
	s, err := c.CreateSession()
	if err == nil {
		s.Close()
		t.Fatal("connected with a wrong key")
	}
}

func TestSensorDataNewestFirstWithPaging(t *testing.T) {
	must(t, session.Query(`CREATE KEYSPACE IF NOT EXISTS iot WITH replication =
		{'class': 'SimpleStrategy', 'replication_factor': 1}`).Exec())
	must(t, session.Query(`CREATE TABLE IF NOT EXISTS iot.sensor_data (sensor_id uuid, date date,
		reading_time timestamp, value double, PRIMARY KEY ((sensor_id, date), reading_time))
		WITH CLUSTERING ORDER BY (reading_time DESC)`).Exec())
	id := gocql.TimeUUID()
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 250; i++ {
		must(t, session.Query(`INSERT INTO iot.sensor_data (sensor_id, date, reading_time, value)
			VALUES (?, ?, ?, ?)`, id, day, day.Add(time.Duration(i)*time.Minute), float64(i)).Exec())
	}
	iter := session.Query(`SELECT reading_time, value FROM iot.sensor_data
		WHERE sensor_id = ? AND date = ?`, id, day).PageSize(40).Iter()
	var ts time.Time
	var v float64
	n := 0
	for iter.Scan(&ts, &v) {
		if want := float64(249 - n); v != want {
			t.Fatalf("row %d: value %v, want %v (newest first)", n, v, want)
		}
		n++
	}
	must(t, iter.Close())
	if n != 250 {
		t.Fatalf("read %d rows through paging, want 250", n)
	}
}

func TestUnloggedBatchAndRequestCharge(t *testing.T) {
	must(t, session.Query(`CREATE KEYSPACE IF NOT EXISTS shop WITH replication =
		{'class': 'SimpleStrategy', 'replication_factor': 1}`).Exec())
	must(t, session.Query(`CREATE TABLE IF NOT EXISTS shop.user_orders (user_id int,
		orderTimestamp timestamp, order_id uuid, total decimal,
		PRIMARY KEY (user_id, orderTimestamp))`).Exec())
	b := session.NewBatch(gocql.UnloggedBatch)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 20; i++ {
		b.Query(`INSERT INTO shop.user_orders (user_id, orderTimestamp, order_id) VALUES (?, ?, ?)`,
			7, base.Add(time.Duration(i)*time.Hour), gocql.TimeUUID())
	}
	must(t, session.ExecuteBatch(b))
	iter := session.Query(`SELECT orderTimestamp FROM shop.user_orders WHERE user_id = ?
		ORDER BY orderTimestamp DESC LIMIT 10`, 7).Iter()
	var ts time.Time
	n := 0
	for iter.Scan(&ts) {
		if want := base.Add(time.Duration(19-n) * time.Hour); !ts.Equal(want) {
			t.Fatalf("row %d: %v, want %v", n, ts, want)
		}
		n++
	}
	if c := charge(t, iter.GetCustomPayload()); c <= 0 {
		t.Fatalf("RequestCharge %v", c)
	}
	must(t, iter.Close())
	if n != 10 {
		t.Fatalf("%d rows, want 10", n)
	}
	logged := session.NewBatch(gocql.LoggedBatch)
	logged.Query(`INSERT INTO shop.user_orders (user_id, orderTimestamp) VALUES (1, 0)`)
	err := session.ExecuteBatch(logged)
	if err == nil || !strings.Contains(err.Error(), "Logged batches are not supported") {
		t.Fatalf("logged batch: %v", err)
	}
}

func TestMetadataAndUnknownPrimaryKeyColumn(t *testing.T) {
	must(t, session.Query(`CREATE KEYSPACE IF NOT EXISTS meta WITH replication =
		{'class': 'SimpleStrategy', 'replication_factor': 1}`).Exec())
	must(t, session.Query(`CREATE TABLE meta.followers (user_id int, follower_id int,
		since timestamp, PRIMARY KEY (user_id, follower_id))`).Exec())
	err := session.Query(`CREATE TABLE meta.bad (a int, b int, PRIMARY KEY (a, nope))`).Exec()
	if err == nil || !strings.Contains(err.Error(), "Unknown definition nope referenced in PRIMARY KEY") {
		t.Fatalf("bad primary key: %v", err)
	}
	md, err := session.KeyspaceMetadata("meta")
	must(t, err)
	tbl, ok := md.Tables["followers"]
	if !ok {
		t.Fatalf("no followers table in %v", md.Tables)
	}
	if len(tbl.PartitionKey) != 1 || tbl.PartitionKey[0].Name != "user_id" ||
		len(tbl.ClusteringColumns) != 1 || tbl.ClusteringColumns[0].Name != "follower_id" {
		t.Fatalf("keys: %+v %+v", tbl.PartitionKey, tbl.ClusteringColumns)
	}
	if _, bad := md.Tables["bad"]; bad {
		t.Fatal("the refused table exists")
	}
}
