/**
 * Runs `close` once, on whichever comes first of SIGTERM, SIGINT and the supervisor's channel closing
 * (a normal stop brings a signal and the disconnect both), then exits: 0 when it is done, 1 when it
 * failed. The channel closes when `npm start` dies, even by SIGKILL: nobody would stop or restart this
 * process then.
 */
export function stopOnce(close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
}
