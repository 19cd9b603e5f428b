#!/usr/bin/python3
"""xdnd_drop.py WINDOW_ID FILE… — drop files on an X11 window, as a file manager would.

Plays the source side of the XDND protocol (version 5, freedesktop.org "Drag-and-Drop Protocol for
the X Window System"): own the XdndSelection, send XdndEnter (type text/uri-list), XdndPosition
over the window's centre, wait for XdndStatus, send XdndDrop, answer the target's selection request
with the file:// URIs, and wait for XdndFinished. GLFW's X11 backend then calls the window's drop
callback with the paths. Uses libX11 through ctypes (no Python packages). Exit 0 when the target
accepted and finished the drop, 1 otherwise.
"""
import ctypes
import os
import sys
import time
import urllib.parse

x11 = ctypes.CDLL("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XCreateSimpleWindow.restype = ctypes.c_ulong
x11.XCreateSimpleWindow.argtypes = [ctypes.c_void_p, ctypes.c_ulong] + [ctypes.c_int] * 4 + [ctypes.c_uint] + [ctypes.c_ulong] * 2
x11.XSetSelectionOwner.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long, ctypes.c_void_p]
x11.XChangeProperty.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int,
                                ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
x11.XPending.argtypes = [ctypes.c_void_p]
x11.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
x11.XFlush.argtypes = [ctypes.c_void_p]
x11.XTranslateCoordinates.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_int, ctypes.c_int,
                                      ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                      ctypes.POINTER(ctypes.c_ulong)]

CLIENT_MESSAGE, SELECTION_REQUEST, SELECTION_NOTIFY = 33, 30, 31
PROP_MODE_REPLACE = 0

# XEvent is a union padded to 24 longs. On LP64 every field below sits in its own 8-byte slot:
#   any:            0 type, 1 serial, 2 send_event, 3 display, 4 window
#   ClientMessage:  5 message_type, 6 format, 7..11 data.l[0..4]
#   SelectionRequest: 4 owner, 5 requestor, 6 selection, 7 target, 8 property, 9 time
#   SelectionNotify:  4 requestor, 5 selection, 6 target, 7 property, 8 time
Event = ctypes.c_long * 24


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    target = int(sys.argv[1], 0)
    uris = "".join("file://" + urllib.parse.quote(os.path.abspath(p)) + "\r\n" for p in sys.argv[2:]).encode()

    dpy = x11.XOpenDisplay(None)
    if not dpy:
        print("xdnd_drop: cannot open the display", file=sys.stderr)
        return 1
    atom = lambda name: x11.XInternAtom(dpy, name.encode(), 0)
    A = {n: atom(n) for n in ("XdndAware", "XdndEnter", "XdndPosition", "XdndStatus", "XdndDrop",
                              "XdndFinished", "XdndSelection", "XdndActionCopy", "text/uri-list")}
    root = x11.XDefaultRootWindow(dpy)
    source = x11.XCreateSimpleWindow(dpy, root, 0, 0, 1, 1, 0, 0, 0)
    x11.XSetSelectionOwner(dpy, A["XdndSelection"], source, 0)

    def send(message_type, l):
        ev = Event()
        ev[0], ev[4], ev[5], ev[6] = CLIENT_MESSAGE, target, A[message_type], 32
        for i, v in enumerate(l):
            ev[7 + i] = v
        x11.XSendEvent(dpy, target, 0, 0, ctypes.byref(ev))
        x11.XFlush(dpy)

    # Where the window's centre is on the root window (XdndPosition takes root coordinates).
    rx, ry, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
    x11.XTranslateCoordinates(dpy, target, root, 100, 100, ctypes.byref(rx), ctypes.byref(ry), ctypes.byref(child))

    send("XdndEnter", [source, 5 << 24, A["text/uri-list"], 0, 0])
    send("XdndPosition", [source, 0, (rx.value << 16) | ry.value, 0, A["XdndActionCopy"]])

    accepted = dropped = finished = False
    deadline = time.time() + 5
    while time.time() < deadline and not finished:
        if not x11.XPending(dpy):
            time.sleep(0.01)
            continue
        ev = Event()
        x11.XNextEvent(dpy, ctypes.byref(ev))
        kind = ev[0] & 0xFFFFFFFF
        if kind == CLIENT_MESSAGE and ev[5] == A["XdndStatus"]:
            accepted = bool(ev[8] & 1)
            if accepted and not dropped:
                send("XdndDrop", [source, 0, 0, 0, 0])
                dropped = True
            elif not accepted:
                break
        elif kind == SELECTION_REQUEST:
            requestor, selection, target_type, prop, when = ev[5], ev[6], ev[7], ev[8], ev[9]
            if target_type == A["text/uri-list"]:
                x11.XChangeProperty(dpy, requestor, prop, target_type, 8, PROP_MODE_REPLACE, uris, len(uris))
            else:
                prop = 0  # refuse other types
            reply = Event()
            reply[0], reply[2], reply[3] = SELECTION_NOTIFY, 1, 0
            reply[4], reply[5], reply[6], reply[7], reply[8] = requestor, selection, target_type, prop, when
            x11.XSendEvent(dpy, requestor, 0, 0, ctypes.byref(reply))
            x11.XFlush(dpy)
        elif kind == CLIENT_MESSAGE and ev[5] == A["XdndFinished"]:
            finished = True
    if not accepted:
        print("xdnd_drop: the window did not accept text/uri-list", file=sys.stderr)
    elif not finished:
        print("xdnd_drop: no XdndFinished from the window", file=sys.stderr)
    return 0 if finished else 1


if __name__ == "__main__":
    sys.exit(main())
