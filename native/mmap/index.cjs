'use strict';
// The addon, or null where it was not built (the caller then reads the file into its own memory).
let addon = null;
try {
  addon = require('./build/Release/mmap.node');
} catch {
  addon = null;
}
module.exports = { map: addon ? addon.map : null };
