// Preloaded (`node --require`) into third-party servers that the e2e tests start.
//
// Forces every TCP listener in the process onto 127.0.0.1 — servers such as
// @modelcontextprotocol/server-everything call `app.listen(PORT)`, which would
// bind all interfaces — and reports the address actually bound on stderr as
// `loopback-only: listening on 127.0.0.1:<port>`, so a test can start the
// server on port 0 and learn its port without racing for a free one.
'use strict';

const net = require('node:net');

const LOOPBACK = '127.0.0.1';
const listen = net.Server.prototype.listen;

net.Server.prototype.listen = function loopbackOnlyListen(...args) {
  const [first] = args;
  if (first !== null && typeof first === 'object' && ('port' in first || 'host' in first)) {
    args[0] = { ...first, host: LOOPBACK };
  } else if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    // listen(port[, host][, backlog][, callback])
    if (typeof args[1] === 'string') args[1] = LOOPBACK;
    else args.splice(1, 0, LOOPBACK);
  } else {
    throw new Error(`loopback-only: refusing a listener that is not a TCP port: ${String(first)}`);
  }
  this.once('listening', () => {
    const { address, port } = this.address();
    process.stderr.write(`loopback-only: listening on ${address}:${port}\n`);
  });
  return listen.apply(this, args);
};
