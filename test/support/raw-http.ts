import net from 'node:net';

/** What one raw TCP exchange with the server ended as. */
export interface RawOutcome {
  /** everything the server sent, as text */
  received: string;
  status: number | null;
  // biome-ignore lint/suspicious/noExplicitAny: the body is asserted field by field
  body: any;
  /** socket errors on the client side (EPIPE, ECONNRESET, …) */
  errors: string[];
  /** ms from connect to the server closing the connection */
  closedAfterMs: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function parse(received: string): Pick<RawOutcome, 'status' | 'body'> {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(received);
  const [, text = ''] = received.split('\r\n\r\n');
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: status ? Number(status[1]) : null, body };
}

/** Opens a socket, collects what comes back and when the server closes it; `send` writes the request. */
export async function rawExchange(port: number, send: (socket: net.Socket) => Promise<void> = async () => undefined): Promise<RawOutcome> {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let received = '';
  const errors: string[] = [];
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', (error: Error & { code?: string }) => errors.push(error.code ?? error.message));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  await send(socket).catch((error: Error & { code?: string }) => errors.push(error.code ?? error.message));
  const closedAfterMs = await closed;
  return { received, ...parse(received), errors: [...new Set(errors)], closedAfterMs };
}

export function write(socket: net.Socket, data: string | Buffer): Promise<void> {
  return new Promise((resolve, reject) => socket.write(data, (error) => (error ? reject(error) : resolve())));
}

/** Writes `body` in `chunkSize` pieces `delayMs` apart (a client on a slow or busy link). */
export async function writeSlowly(socket: net.Socket, body: Buffer, chunkSize: number, delayMs: number): Promise<void> {
  for (let offset = 0; offset < body.length && !socket.destroyed; offset += chunkSize) {
    await write(socket, body.subarray(offset, offset + chunkSize));
    await pause(delayMs);
  }
}

/** Resolves when the socket closes or after `ms`, whichever is first: true if it closed. */
export function closesWithin(socket: net.Socket, ms: number): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export { pause };
