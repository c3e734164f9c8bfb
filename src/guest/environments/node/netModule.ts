import { Buffer } from 'buffer';
import { EventEmitter } from 'events';

type Enqueue = (fn: () => void) => void;
type Socket = EventEmitter & Record<string, unknown> & { written: unknown[] };

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^(([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|([0-9a-f]{1,4}:){0,7}:([0-9a-f]{1,4}:){0,6}[0-9a-f]{0,4}|::1?)$/i;

/** A modelled socket: what the snippet writes is kept, never sent; `end()` closes it. */
function createSocket(enqueue: Enqueue, remotePort: number): Socket {
  const socket = new EventEmitter() as Socket;
  let ended = false;
  let encoding: string | undefined;
  const close = () => {
    if (ended) return;
    ended = true;
    enqueue(() => {
      socket.emit('end');
      socket.emit('close', false);
    });
  };
  Object.assign(socket, {
    written: [],
    remoteAddress: '127.0.0.1',
    remotePort,
    remoteFamily: 'IPv4',
    localAddress: '127.0.0.1',
    localPort: 3000,
    readyState: 'open',
    writable: true,
    readable: true,
    bytesWritten: 0,
    write(chunk: unknown, encodingOrCallback?: unknown, callback?: unknown) {
      socket.written.push(chunk);
      const cb = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
      if (typeof cb === 'function') enqueue(() => (cb as () => void)());
      return true;
    },
    end(chunk?: unknown) {
      if (chunk !== undefined && typeof chunk !== 'function') socket.written.push(chunk);
      close();
      return socket;
    },
    destroy: () => { close(); return socket; },
    setEncoding: (e: string) => { encoding = e; return socket; },
    setTimeout: () => socket,
    setNoDelay: () => socket,
    setKeepAlive: () => socket,
    address: () => ({ address: '127.0.0.1', family: 'IPv4', port: 3000 }),
    pipe: (dest: unknown) => dest,
    ref: () => socket,
    unref: () => socket,
    pause: () => socket,
    resume: () => socket,
    /** Delivers data as a peer would: a Buffer, or a string after setEncoding. @internal */
    receive(data: unknown) {
      socket.emit('data', typeof data === 'string' && !encoding ? Buffer.from(data) : data);
    },
  });
  return socket;
}

/** A server the driver connects to after the snippet. */
export interface ModelledServer {
  readonly server: EventEmitter;
  readonly listening: () => boolean;
}

/**
 * `net`: servers listen on nothing and clients connect to nothing. `connect` succeeds at once;
 * a listening server gets one connection from a modelled peer after the snippet (`driveServers`).
 */
export function createNet(enqueue: Enqueue): { module: Record<string, unknown>; servers: ModelledServer[]; socket: (port: number) => Socket } {
  const servers: ModelledServer[] = [];
  let nextPort = 40000;
  class Server extends EventEmitter {
    #listening = false;
    #port = 0;
    constructor(options?: unknown, listener?: unknown) {
      super();
      const onConnection = typeof options === 'function' ? options : listener;
      if (typeof onConnection === 'function') this.on('connection', onConnection as (...args: unknown[]) => void);
      servers.push({ server: this, listening: () => this.#listening });
    }
    get listening(): boolean { return this.#listening; }
    listen(...args: unknown[]): this {
      const first = args[0];
      this.#port = typeof first === 'number' ? first : typeof first === 'object' && first !== null && typeof (first as { port?: unknown }).port === 'number' ? (first as { port: number }).port : Number(first) || 0;
      if (this.#port === 0) this.#port = nextPort++;
      this.#listening = true;
      // The callback is the last argument, as Node takes it (a port before it is never called).
      const last = args[args.length - 1];
      const cb = typeof last === 'function' ? (last as () => void) : undefined;
      enqueue(() => {
        this.emit('listening');
        cb?.call(this);
      });
      return this;
    }
    address() { return { address: '::', family: 'IPv6', port: this.#port }; }
    close(cb?: (error?: Error) => void): this {
      this.#listening = false;
      enqueue(() => {
        this.emit('close');
        cb?.();
      });
      return this;
    }
    getConnections(cb: (error: Error | null, count: number) => void): void { enqueue(() => cb(null, 0)); }
    ref(): this { return this; }
    unref(): this { return this; }
  }
  const connect = (...args: unknown[]) => {
    const socket = createSocket(enqueue, Number(args[0]) || 0);
    const cb = args.find((a) => typeof a === 'function') as (() => void) | undefined;
    enqueue(() => {
      socket.emit('connect');
      socket.emit('ready');
      cb?.call(socket);
    });
    return socket;
  };
  const isIPv4 = (s: unknown) => IPV4.test(String(s));
  const isIPv6 = (s: unknown) => IPV6.test(String(s));
  const module = {
    createServer: (options?: unknown, listener?: unknown) => new Server(options, listener),
    Server,
    connect,
    createConnection: connect,
    Socket: function Socket() { return createSocket(enqueue, 0); },
    isIP: (s: unknown) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0),
    isIPv4,
    isIPv6,
  };
  return { module, servers, socket: (port) => createSocket(enqueue, port) };
}

/**
 * After the snippet, each listening server gets one connection: the snippet's 'connection'
 * handler runs with a socket that then receives `data` (the value generator's `socket.data`).
 */
export function driveServers(net: ReturnType<typeof createNet>, data: () => unknown): () => void {
  return () => {
    for (const { server, listening } of net.servers) {
      if (!listening() || server.listenerCount('connection') === 0) continue;
      const socket = net.socket(52000);
      server.emit('connection', socket);
      const received = data();
      (socket.receive as (d: unknown) => void)(received === undefined ? 'hello\n' : received);
    }
  };
}
