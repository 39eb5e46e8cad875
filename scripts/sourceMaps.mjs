// Loaded by `npm start` into each process it starts, after tsx and before the process's own modules: source maps
// only with SOURCE_MAPS=true. tsx turns them on, and Node then keeps every module's map decoded in memory, about
// 50 MiB of JS heap in each API, workers and batch clearance process (bench/RESULTS.md, "One index per machine");
// without them a stack trace gives each frame's function and file, its line and column those of the code tsx ran.
// Plain JavaScript: it must not depend on tsx's loader, whose hooks a preload right after it may not see yet.
process.setSourceMapsEnabled(process.env.SOURCE_MAPS === 'true');
