"""`cosmos-cassandra-emulator shell`, the CQL shell: non-interactive runs (-e,
-f, a pipe) with cqlsh's table output, its error lines and exit codes, and
the request-charge line after each statement; TLS verification with --cafile;
and the interactive shell through a pseudo-terminal (tmux)."""

import os
import re
import shlex
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import uuid

from cqlwire import OP, Reader, bytes_, string

from emulator import Emulator, binary

emu = None

RU_LINE = re.compile(r"^Request charge: (\d+\.\d\d) RU \(session total: (\d+\.\d\d) RU\)$", re.M)


def setUpModule():
    global emu
    emu = Emulator().start()
    r = shell("-e", "CREATE KEYSPACE shop WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1};"
                    "CREATE TABLE shop.items (id int PRIMARY KEY, name text, tags list<text>,"
                    " price double);"
                    "INSERT INTO shop.items (id, name, tags, price) VALUES (1, 'apple', ['red'], 1.5);"
                    "INSERT INTO shop.items (id, name, price) VALUES (22, 'crème brûlée', 4.25);"
                    "INSERT INTO shop.items (id, name) VALUES (3, 'pear');")
    assert r.returncode == 0, r.stderr


def tearDownModule():
    emu.stop()


def shell(*args, port=None, stdin=None, env=None):
    cmd = [binary(), "shell", "127.0.0.1", str(port or emu.port), *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, input=stdin,
                          env=env)


class NonInteractive(unittest.TestCase):
    def test_execute_prints_a_cqlsh_table_and_the_request_charge(self):
        r = shell("-e", "SELECT id, name, price FROM shop.items WHERE id IN (1, 22)")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        table = ("\n"
                 " id | name         | price\n"
                 "----+--------------+-------\n"
                 "  1 |        apple |   1.5\n"
                 " 22 | crème brûlée |  4.25\n"
                 "\n"
                 "(2 rows)\n")
        self.assertTrue(r.stdout.startswith(table), r.stdout)
        m = RU_LINE.search(r.stdout)
        self.assertIsNotNone(m, r.stdout)
        self.assertGreater(float(m.group(1)), 0)
        self.assertEqual(m.group(1), m.group(2))  # the first statement is the whole session

    def test_each_statement_gets_a_line_and_the_total_adds_up(self):
        r = shell("-e", "SELECT * FROM shop.items WHERE id = 1; "
                        "SELECT * FROM shop.items WHERE id = 3;")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = RU_LINE.findall(r.stdout)
        self.assertEqual(len(lines), 2, r.stdout)
        (a, total_a), (b, total_b) = [(float(x), float(y)) for x, y in lines]
        self.assertAlmostEqual(total_a, a, places=2)
        self.assertAlmostEqual(total_b, a + b, places=2)

    def test_collections_and_nulls_print_as_cqlsh_shows_them(self):
        r = shell("-e", "SELECT tags, price FROM shop.items WHERE id = 1;"
                        "SELECT tags FROM shop.items WHERE id = 3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" ['red'] |   1.5\n", r.stdout)
        self.assertIn("\n null\n", r.stdout)

    def test_server_error_exits_1_with_the_cqlsh_error_line(self):
        r = shell("-e", "SELECT * FROM shop.nope")
        self.assertEqual(r.returncode, 1)
        self.assertIn('<stdin>:1:InvalidRequest: Error from server: code=2200 [Invalid query] '
                      'message="', r.stderr)
        self.assertIn("nope", r.stderr)

    def test_file_runs_multi_line_statements_and_shell_commands(self):
        d = tempfile.mkdtemp(prefix="emu-shell-")
        self.addCleanup(shutil.rmtree, d, True)
        path = os.path.join(d, "s.cql")
        with open(path, "w") as f:
            f.write("USE shop;\n"
                    "-- a comment; with a semicolon\n"
                    "SELECT id, name\n"
                    "  FROM items\n"
                    "  WHERE id = 1;\n"
                    "EXPAND ON\n"
                    "SELECT id, name FROM items WHERE id = 3;\n"
                    "EXPAND OFF\n"
                    "CONSISTENCY QUORUM\n"
                    "SELECT nothing FROM items;\n"
                    "CONSISTENCY\n")
        r = shell("-f", path)
        self.assertEqual(r.returncode, 1)  # one statement failed
        self.assertIn(" id | name\n----+-------\n  1 | apple\n\n(1 rows)\n", r.stdout)
        self.assertIn("Now Expanded output is enabled\n", r.stdout)
        self.assertIn("@ Row 1\n------+------\n id   | 3\n name | pear\n\n(1 rows)\n", r.stdout)
        self.assertIn("Consistency level set to QUORUM.\n", r.stdout)
        self.assertIn("Current consistency level is QUORUM.\n", r.stdout)
        self.assertIn(path + ":10:InvalidRequest: Error from server: code=2200", r.stderr)
        self.assertEqual(r.stderr.count("Error from server"), 1, r.stderr)
        # USE, the two SELECTs and the failed one are each charged
        self.assertEqual(len(RU_LINE.findall(r.stdout)), 4, r.stdout)

    def test_paging_fetches_every_page_and_charges_them_all(self):
        r = shell("-e", "PAGING 1; SELECT id FROM shop.items")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("Page size: 1\n", r.stdout)
        self.assertIn("(3 rows)\n", r.stdout)
        self.assertEqual(sorted(re.findall(r"^ +(\d+)$", r.stdout, re.M)), ["1", "22", "3"])
        one_page = shell("-e", "SELECT id FROM shop.items")
        self.assertEqual(one_page.returncode, 0, one_page.stderr)
        paged = float(RU_LINE.search(r.stdout).group(1))
        single = float(RU_LINE.search(one_page.stdout).group(1))
        self.assertGreater(paged, single)  # three requests, each charged

    def test_statements_from_a_pipe(self):
        r = shell(stdin="SELECT name FROM shop.items WHERE id = 3;\n")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" name\n------\n pear\n\n(1 rows)\n", r.stdout)

    def test_keyspace_option_uses_it(self):
        r = shell("-k", "shop", "-e", "SELECT name FROM items WHERE id = 1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" apple\n", r.stdout)


class Connecting(unittest.TestCase):
    def test_cafile_verifies_the_server(self):
        r = shell("--cafile", emu.ca_path, "-e", "SELECT release_version FROM system.local")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(1 rows)", r.stdout)

    def test_a_certificate_from_another_ca_is_refused(self):
        other = Emulator().start()
        try:
            r = shell("--cafile", other.ca_path, "-e", "SELECT * FROM system.local")
        finally:
            other.stop()
        self.assertEqual(r.returncode, 1)
        self.assertIn("certificate verify failed", r.stderr)

    def test_bad_credentials_exit_1(self):
        r = shell("-p", "wrong", "-e", "SELECT * FROM system.local")
        self.assertEqual(r.returncode, 1)
        self.assertIn("AuthenticationFailed: Error from server: code=0100 [Bad credentials]",
                      r.stderr)

    def test_plaintext_client_on_the_tls_port_is_told_so(self):
        r = shell("--no-ssl", "-e", "SELECT * FROM system.local")
        self.assertEqual(r.returncode, 1)
        self.assertIn("Connection error", r.stderr)

    def test_help_lists_the_options(self):
        r = subprocess.run([binary(), "shell", "--help"], capture_output=True, text=True,
                           timeout=30)
        self.assertEqual(r.returncode, 0)
        for opt in ("--cafile", "--no-ssl", "-u, --username", "-e, --execute", "-f, --file",
                    "-k, --keyspace", ".cosmos_cqlsh_history"):
            self.assertIn(opt, r.stdout)

    def test_bad_option_exits_2(self):
        r = shell("--bogus")
        self.assertEqual(r.returncode, 2)
        self.assertIn("unknown option '--bogus'", r.stderr)


class Describe(unittest.TestCase):
    """The emulator has no server-side DESCRIBE: the shell reads system_schema."""

    @classmethod
    def setUpClass(cls):
        r = shell("-e", "CREATE TYPE shop.addr (street text, zip int);"
                        "CREATE TABLE shop.orders (user text, day date, seq int, total decimal,"
                        " note text static, ship frozen<addr>,"
                        " PRIMARY KEY ((user, day), seq)) WITH CLUSTERING ORDER BY (seq DESC);"
                        "CREATE INDEX ON shop.items (name);")
        assert r.returncode == 0, r.stderr

    def test_describe_table_writes_its_create_statement(self):
        r = shell("-e", "DESCRIBE TABLE shop.orders")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("\nCREATE TABLE shop.orders (\n"
                      "    user text,\n"
                      "    day date,\n"
                      "    seq int,\n"
                      "    note text static,\n"
                      "    ship frozen<addr>,\n"
                      "    total decimal,\n"
                      "    PRIMARY KEY ((user, day), seq)\n"
                      ") WITH CLUSTERING ORDER BY (seq DESC)\n"
                      "    AND bloom_filter_fp_chance = 0.01\n", r.stdout)
        self.assertIn("    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n",
                      r.stdout)
        self.assertRegex(r.stdout, r"AND speculative_retry = '99PERCENTILE';\n")
        self.assertIsNotNone(RU_LINE.search(r.stdout))  # the schema reads are charged

    def test_what_describe_writes_builds_the_same_table_again(self):
        r = shell("-e", "DESCRIBE TABLE shop.orders")
        stmt = r.stdout[r.stdout.index("CREATE TABLE"):r.stdout.index(";\n") + 1]
        stmt = stmt.replace("shop.orders", "shop.orders_copy")
        again = shell("-e", stmt + " DESCRIBE TABLE shop.orders_copy")
        self.assertEqual(again.returncode, 0, again.stderr)
        copy = again.stdout[again.stdout.index("CREATE TABLE"):]
        self.assertEqual(copy[:copy.index(";\n") + 1].replace("orders_copy", "orders"),
                         stmt.replace("orders_copy", "orders"))

    def test_describe_keyspace_types_index_and_lists(self):
        r = shell("-k", "shop", "-e", "DESCRIBE KEYSPACE shop; DESCRIBE KEYSPACES;"
                                      " DESC TABLES; DESCRIBE TYPE addr; DESCRIBE items")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', "
                      "'replication_factor': '1'}  AND durable_writes = true;", r.stdout)
        self.assertIn("CREATE TYPE shop.addr (\n    street text,\n    zip int\n);", r.stdout)
        self.assertIn("CREATE TABLE shop.items (\n    id int PRIMARY KEY,\n", r.stdout)
        self.assertIn("CREATE INDEX items_name_idx ON shop.items (name);", r.stdout)
        self.assertRegex(r.stdout, r"\bsystem_schema  .*\bshop\b")
        self.assertRegex(r.stdout, r"\n(items  orders|orders  items)")

    def test_describe_of_a_missing_table_fails(self):
        r = shell("-e", "DESCRIBE TABLE shop.nope")
        self.assertEqual(r.returncode, 1)
        self.assertIn("'nope' not found in keyspace 'shop'", r.stderr)


class FakeServer:
    """A plaintext CQL server that knows only protocol v3 (it refuses v4 as
    Cassandra 2.1 does), asks for no password and sends no RequestCharge,
    and has a server-side DESCRIBE (as Cassandra 4)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.versions = []
        self.queries = []
        threading.Thread(target=self.serve, daemon=True).start()

    def close(self):
        self.sock.close()

    def serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self.talk, args=(conn,), daemon=True).start()

    @staticmethod
    def read(conn, n):
        data = b""
        while len(data) < n:
            chunk = conn.recv(n - len(data))
            if not chunk:
                raise ConnectionError
            data += chunk
        return data

    def reply(self, conn, version, stream, opcode, body):
        conn.sendall(struct.pack(">BBhBI", 0x80 | version, 0, stream, opcode, len(body)) + body)

    @staticmethod
    def rows(names, values):
        meta = struct.pack(">ii", 0x0001, len(names)) + string("ks") + string("t")
        meta += b"".join(string(n) + struct.pack(">H", 0x000D) for n in names)
        cells = b"".join(bytes_(v.encode()) for row in values for v in row)
        return struct.pack(">i", 2) + meta + struct.pack(">i", len(values)) + cells

    def talk(self, conn):
        try:
            while True:
                version, _, stream, opcode, length = struct.unpack(">BBhBI", self.read(conn, 9))
                body = self.read(conn, length)
                if opcode == OP["STARTUP"]:
                    self.versions.append(version)
                    if version != 3:
                        msg = "Invalid or unsupported protocol version (%d)" % version
                        self.reply(conn, 3, stream, OP["ERROR"],
                                   struct.pack(">i", 0x000A) + string(msg))
                        conn.close()
                        return
                    self.reply(conn, 3, stream, OP["READY"], b"")
                elif opcode == OP["QUERY"]:
                    q = Reader(body).long_string()
                    self.queries.append(q)
                    if q == "SELECT bad":  # an int cell of 3 bytes, a list cell cut short
                        meta = struct.pack(">ii", 0x0001, 2) + string("ks") + string("t")
                        meta += string("i") + struct.pack(">H", 0x0009)
                        meta += string("l") + struct.pack(">HH", 0x0020, 0x0009)
                        cells = bytes_(b"\x01\x02\x03") + bytes_(b"\x00\x00\x00\x05")
                        out = struct.pack(">i", 2) + meta + struct.pack(">i", 1) + cells
                    elif q == "SELECT truncated":  # a row count the body does not hold
                        out = self.rows(["greeting"], [["x"]])[:-6]
                    elif q.upper().startswith("DESCRIBE"):
                        out = self.rows(["keyspace_name", "type", "name", "create_statement"],
                                        [["ks", "table", "t", "CREATE TABLE ks.t (k int PRIMARY KEY);"]])
                    else:
                        out = self.rows(["greeting"], [["hello"], ["hi"]])
                    self.reply(conn, 3, stream, OP["RESULT"], out)
        except (ConnectionError, OSError):
            conn.close()


class OtherServers(unittest.TestCase):
    def setUp(self):
        self.server = FakeServer()
        self.addCleanup(self.server.close)

    def test_steps_down_to_v3_and_prints_no_charge_line_without_one(self):
        r = shell("--no-ssl", "-e", "SELECT greeting FROM ks.t", port=self.server.port)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "\n greeting\n----------\n    hello\n       hi\n\n(2 rows)\n")
        self.assertEqual(self.server.versions, [4, 3])

    def test_malformed_cells_print_as_hex_and_a_malformed_reply_is_an_error(self):
        r = shell("--no-ssl", "-e", "SELECT bad", port=self.server.port)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(" 0x010203 | 0x00000005\n", r.stdout)
        del self.server.versions[:]
        r = shell("--no-ssl", "-e", "SELECT truncated; SELECT greeting FROM ks.t",
                  port=self.server.port)
        self.assertEqual(r.returncode, 1)
        self.assertIn("Connection error: bad response from the server", r.stderr)
        # that connection is dropped; the next statement gets a new one
        self.assertIn(" greeting\n----------\n    hello\n", r.stdout)
        self.assertEqual(self.server.versions, [4, 3, 4, 3])

    def test_a_server_side_describe_is_printed_as_it_comes(self):
        r = shell("--no-ssl", "-e", "DESCRIBE TABLE ks.t", port=self.server.port)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "\nCREATE TABLE ks.t (k int PRIMARY KEY);\n\n")
        self.assertEqual(self.server.queries, ["DESCRIBE TABLE ks.t"])  # no system_schema reads


class Terminal:
    """The shell in a tmux pane (200x50), on a tmux server of its own (-L) so
    parallel tests never share one. The pane's command ends by printing the
    shell's exit status and waiting, so the screen can be read after EXIT."""

    def __init__(self, test, *args):
        self.home = tempfile.mkdtemp(prefix="emu-shell-home-")
        self.sock = "emu-shell-%d-%s" % (os.getpid(), uuid.uuid4().hex[:8])
        cmd = shlex.join(["env", "HOME=" + self.home, binary(), "shell", "127.0.0.1",
                          str(emu.port), *args])
        self.tmux("new-session", "-d", "-x", "200", "-y", "50",
                  "%s; echo \"[exit $?]\"; sleep 600" % cmd)
        test.addCleanup(self.close)

    def tmux(self, *args):
        return subprocess.run(["tmux", "-L", self.sock, *args], capture_output=True, text=True,
                              timeout=30, check=True).stdout

    def close(self):
        subprocess.run(["tmux", "-L", self.sock, "kill-server"], capture_output=True, timeout=30)
        shutil.rmtree(self.home, ignore_errors=True)

    def type(self, text, enter=True):
        if text.endswith(";"):
            text = text[:-1] + "\\;"  # a trailing ';' would end the tmux command
        self.tmux("send-keys", "-l", text)
        if enter:
            self.tmux("send-keys", "Enter")

    def key(self, *names):
        self.tmux("send-keys", *names)

    def wait_prompt(self, prompt, timeout=30):
        """The screen once its last line is the bare prompt: the shell waits."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            lines = [l for l in screen.split("\n") if l.strip()]
            if lines and lines[-1] == prompt.rstrip(" "):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError("no %r prompt; screen:\n%s" % (prompt, screen))
            time.sleep(0.1)

    def screen(self):
        return self.tmux("capture-pane", "-p", "-S", "-1000")

    def wait_for(self, text, count=1, timeout=30):
        """The screen once text shows on it count times (tmux drops the
        blanks that end a line, so text's are ignored too)."""
        text = text.rstrip(" ")
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if screen.count(text) >= count:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError("%r (x%d) never showed; screen:\n%s" % (text, count, screen))
            time.sleep(0.1)


class Interactive(unittest.TestCase):
    def test_prompt_multi_line_statements_history_and_charges(self):
        t = Terminal(self)
        t.wait_for("Use HELP for help.")
        self.assertIn("[cosmos-cassandra-emulator shell", t.screen())
        t.wait_prompt("cqlsh> ")
        t.type("USE shop;")
        t.wait_prompt("cqlsh:shop> ")
        t.type("SELECT id, name")
        t.wait_for("   ... ")
        t.type("  FROM items WHERE id = 1;")
        screen = t.wait_for("(1 rows)")
        self.assertIn(" id | name\n----+-------\n  1 | apple\n", screen)
        first = [float(x) for x in re.findall(r"Request charge: (\d+\.\d\d) RU", screen)]
        self.assertEqual(len(first), 2, screen)  # USE, then the SELECT
        # arrow-up brings the multi-line statement back as one line
        t.wait_prompt("cqlsh:shop> ")
        t.key("Up")
        t.wait_for("cqlsh:shop> SELECT id, name   FROM items WHERE id = 1;")
        t.key("Enter")
        screen = t.wait_for("(1 rows)", count=2)
        totals = [float(x) for x in re.findall(r"session total: (\d+\.\d\d) RU", screen)]
        self.assertEqual(len(totals), 3, screen)
        self.assertAlmostEqual(totals[2], totals[1] + first[1], places=2)
        t.type("SELECT * FROM nope;")
        screen = t.wait_for("InvalidRequest: Error from server: code=2200 [Invalid query]")
        self.assertNotIn("<stdin>:", screen)  # no FILE:LINE: on a terminal
        t.type("EXIT")
        t.wait_for("[exit 0]")
        with open(os.path.join(t.home, ".cosmos_cqlsh_history")) as f:
            history = f.read()
        self.assertIn("USE", history)
        self.assertIn("FROM\\040items", history)  # libedit's file encodes blanks

    def test_history_comes_back_in_the_next_session(self):
        t = Terminal(self)
        t.wait_prompt("cqlsh> ")
        t.type("SELECT name FROM shop.items WHERE id = 3;")
        t.wait_for("(1 rows)")
        t.type("QUIT")
        t.wait_for("[exit 0]")
        again = subprocess.run(["tmux", "-L", t.sock, "respawn-pane", "-k", "env",
                                "HOME=" + t.home, binary(), "shell", "127.0.0.1",
                                str(emu.port)], capture_output=True, text=True, timeout=30)
        self.assertEqual(again.returncode, 0, again.stderr)
        t.wait_for("Use HELP for help.")
        t.wait_prompt("cqlsh> ")
        t.key("Up")  # QUIT, the last entry
        t.wait_for("cqlsh> QUIT")
        t.key("Up")
        t.wait_for("cqlsh> SELECT name FROM shop.items WHERE id = 3;")

    def test_expand_paging_more_prompt_and_ctrl_c(self):
        t = Terminal(self, "-k", "shop")
        t.wait_prompt("cqlsh:shop> ")
        t.type("EXPAND ON")
        t.wait_for("Now Expanded output is enabled")
        t.type("SELECT id, name FROM items WHERE id = 3;")
        screen = t.wait_for("(1 rows)")
        self.assertIn("@ Row 1\n------+------\n id   | 3\n name | pear\n", screen)
        t.type("EXPAND OFF")
        t.wait_for("Disabled Expanded output.")
        t.type("PAGING 2")
        t.wait_for("Page size: 2")
        t.type("SELECT id FROM items;")
        screen = t.wait_for("---MORE---")
        self.assertNotIn("(3 rows)", screen)  # waiting for the user
        t.key("Enter")
        screen = t.wait_for("(3 rows)")
        self.assertEqual(screen.count(" id\n----\n"), 2, screen)  # a header per page
        self.assertEqual(sorted(re.findall(r"^ +(\d+)$", screen, re.M)), ["1", "22", "3"])
        # Ctrl-C drops the line being typed; the shell goes on
        t.type("SELECT garbage", enter=False)
        t.key("C-c")
        t.type("SELECT name FROM items WHERE id = 1;")
        screen = t.wait_for(" apple\n")
        self.assertNotIn("SyntaxException", screen)
        t.type("EXIT")
        t.wait_for("[exit 0]")


if __name__ == "__main__":
    unittest.main()
