"""(session 80; issue #37) The board's SM clock and power over each kernel's own window of `--timing soak`.

`host gemm ... --bench --timing soak` runs ours alone for 4 s, then the reference alone, and prints each side's timed
window (its second half) to stderr as `soak a START END` / `soak b START END` (Unix ms), one pair a result row (a
block-scaled FP8 problem has two rows: against cuBLASLt, then against ours per-tensor). This joins those windows with
`nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader,nounits -lms 20` samples (timestamps in
the machine's local time, read as such by `datetime.timestamp()`) and prints, per window: the side, the samples, the median SM
clock (MHz) and the mean board power (W). TFLOP/s over the clock is the work a cycle; at the power limit a kernel that
draws more a cycle runs a lower clock.

    python3 soak_clocks.py HOST_STDERR NVIDIA_SMI_CSV
"""

import datetime
import statistics
import sys


def samples(path):
    out = []
    for line in open(path):
        parts = [p.strip() for p in line.split(",")]
        if len(parts) != 3:
            continue
        try:
            ts = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp() * 1e3
            out.append((ts, float(parts[1]), float(parts[2])))
        except ValueError:
            continue
    return out


def windows(path):
    out = []
    for line in open(path):
        parts = line.split()
        if len(parts) == 4 and parts[0] == "soak":
            out.append((parts[1], float(parts[2]), float(parts[3])))
    return out


def main():
    s = samples(sys.argv[2])
    for i, (side, t0, t1) in enumerate(windows(sys.argv[1])):
        w = [x for x in s if t0 <= x[0] <= t1]
        if not w:
            print(f"window {i} {side}: no samples")
            continue
        clock = statistics.median(x[1] for x in w)
        power = statistics.mean(x[2] for x in w)
        print(f"window {i} {side}: {len(w)} samples, {clock:.0f} MHz, {power:.0f} W")


if __name__ == "__main__":
    main()
