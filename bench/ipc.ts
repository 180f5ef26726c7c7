import type { ChildProcess } from 'node:child_process';

/** Request/answer over a child's IPC channel: `{id, type, …}` out, `{id, ok, result|error}` back. */
export interface IpcPeer {
  request<T>(type: string, payload?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
}

interface Answer {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

export function ipcPeer(child: ChildProcess, name: string): IpcPeer {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  child.on('message', (raw) => {
    const answer = raw as Answer;
    const waiter = waiting.get(answer?.id);
    if (!waiter) return;
    waiting.delete(answer.id);
    if (answer.ok) waiter.resolve(answer.result);
    else waiter.reject(new Error(`${name}: ${answer.error}`));
  });
  child.on('exit', (code, signal) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`${name} exited (${signal ?? code})`));
    waiting.clear();
  });
  return {
    request<T>(type: string, payload: Record<string, unknown> = {}, timeoutMs = 120_000): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error(`${name}: no answer to ${type} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(id, {
          resolve: (value) => {
            clearTimeout(timer);
            resolve(value as T);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        child.send({ ...payload, id, type });
      });
    },
  };
}
