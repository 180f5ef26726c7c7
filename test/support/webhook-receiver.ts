import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** when the request arrived (Date.now()) */
  at: number;
}

/** What a receiver answers: a status (a 2xx says "thanks", anything else 10,000 x's), or a status and a body. */
export type Answer = number | { status: number; body: string };

export interface Receiver {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1: `answer` gives the answer to the nth request (from 1) it receives. */
export async function receiver(answer: (n: number, hit: Hit) => Answer = () => 200): Promise<Receiver> {
  const hits: Hit[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    const at = Date.now();
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const hit = { headers: request.headers, body, at };
      hits.push(hit);
      const given = answer(hits.length, hit);
      const { status, body: text } =
        typeof given === 'number' ? { status: given, body: given < 300 ? 'thanks' : 'x'.repeat(10_000) } : given;
      response.statusCode = status;
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
