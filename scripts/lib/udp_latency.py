#!/usr/bin/env python3
"""One-way UDP latency between two network namespaces of this machine.

  udp_latency.py recv PORT COUNT TIMEOUT_S OUT   (run in the receiving namespace)
  udp_latency.py send ADDR PORT COUNT RATE_PPS   (run in the sending namespace)

The sender stamps each datagram with its sequence number and CLOCK_REALTIME in
ns; the receiver takes the kernel's receive time (SO_TIMESTAMPNS, same clock:
one machine) and writes "seq latency_us tx_us" per datagram to OUT (tx_us: the
sender's stamp, which tells a stall the sender shared from one on the path). `summary OUT
COUNT` prints received, lost, p50/p90/p99/max in us. Every namespace shares the
machine's clock, so the difference is the path between the two sockets.
"""
import socket
import struct
import sys
import time

SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)
FMT = "!QQ"


def recv(port, count, timeout_s, out):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.bind(("0.0.0.0", port))
    s.settimeout(timeout_s)
    got = 0
    with open(out, "w") as f:
        f.write("ready\n")
        f.flush()
        while got < count:
            try:
                data, anc, _, _ = s.recvmsg(64, socket.CMSG_SPACE(16))
            except socket.timeout:
                break
            rx_ns = None
            for level, kind, cdata in anc:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    sec, nsec = struct.unpack("qq", cdata[:16])
                    rx_ns = sec * 1000000000 + nsec
            if rx_ns is None or len(data) < struct.calcsize(FMT):
                continue
            seq, tx_ns = struct.unpack(FMT, data[: struct.calcsize(FMT)])
            f.write(f"{seq} {(rx_ns - tx_ns) / 1000:.1f} {tx_ns // 1000}\n")
            f.flush()
            got += 1


def send(addr, port, count, rate):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    period = 1.0 / rate
    t = time.monotonic()
    for seq in range(count):
        t += period
        d = t - time.monotonic()
        if d > 0:
            time.sleep(d)
        s.sendto(struct.pack(FMT, seq, time.clock_gettime_ns(time.CLOCK_REALTIME)), (addr, port))


def summary(out, count):
    lat = sorted(float(l.split()[1]) for l in open(out) if l[0].isdigit())
    if not lat:
        print(f"received 0 of {count}")
        return
    q = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
    print(f"received {len(lat)} of {count}, lost {count - len(lat)}; one-way us "
          f"p50 {q(0.5):.0f} p90 {q(0.9):.0f} p99 {q(0.99):.0f} max {lat[-1]:.0f}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "recv":
        recv(int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5])
    elif cmd == "send":
        send(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]))
    elif cmd == "summary":
        summary(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit(f"unknown command {cmd!r} (recv, send, summary)")
