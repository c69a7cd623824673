"""sim/panel_tap.py: a line cut short by a power cut is not a line. make powercut (vlt) after the
display's frames went out in pieces: a frame cut mid-way reached the harness as a line, its JSON
failed to parse, the harness's reader thread died and the campaign saw thousands of credits "lost"."""
import socket
import threading

from sim.panel_tap import PanelTap


def test_whole_lines_only_a_last_line_cut_short_by_the_link_closing_is_dropped():
    srv = socket.create_server(("127.0.0.1", 0))
    port = srv.getsockname()[1]

    def board() -> None:
        conn, _ = srv.accept()
        conn.sendall(b'lamp play 1\ndisplay {"credits": 5}\ndisplay {"credits": 1')  # the power goes here
        conn.close()

    t = threading.Thread(target=board)
    t.start()
    tap = PanelTap(port)
    try:
        assert list(tap.lines()) == ["lamp play 1", 'display {"credits": 5}']
        assert tap.closed.is_set()
    finally:
        t.join(5)
        tap.close()
        srv.close()
