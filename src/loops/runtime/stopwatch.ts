// Phase timings for reports and benchmarks (never for decisions).

/** Measures consecutive phases: each `lap` returns the milliseconds since the previous one. */
export class Stopwatch {
  private readonly start: number;
  private last: number;

  constructor(private readonly elapsed: () => number = () => performance.now()) {
    this.start = this.last = elapsed();
  }

  /** Returns the milliseconds since the previous lap (or the start), rounded. */
  lap(): number {
    const now = this.elapsed();
    const ms = now - this.last;
    this.last = now;
    return Math.round(ms);
  }

  /** Returns the milliseconds since the start, rounded. */
  total(): number {
    return Math.round(this.elapsed() - this.start);
  }
}
