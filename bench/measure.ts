/** Runs `op` repeatedly for about `seconds` (after a short warm-up) and answers operations per second. */
export async function measureOpsPerSec(
  op: () => unknown | Promise<unknown>,
  seconds = 1,
  warmupSeconds = 0.2,
): Promise<number> {
  const until = (deadline: number) => performance.now() < deadline;
  let deadline = performance.now() + warmupSeconds * 1000;
  while (until(deadline)) await op();
  let count = 0;
  const start = performance.now();
  deadline = start + seconds * 1000;
  while (until(deadline)) {
    await op();
    count++;
  }
  return count / ((performance.now() - start) / 1000);
}
