import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP attribute value as the JSON encoding writes it. */
type AnyValue = {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
};

interface OtlpSpanJson {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: AnyValue }[];
}

interface ExportRequestJson {
  resourceSpans?: {
    resource?: { attributes?: { key: string; value: AnyValue }[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpanJson[] }[];
  }[];
}

/** A span as the tests read it: ids in hex, attributes and its resource's attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  scope: string;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
}

export const SpanKinds = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

const plain = (value: AnyValue): string | number | boolean =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.boolValue ??
  value.doubleValue ??
  '';

const attributesOf = (list: { key: string; value: AnyValue }[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));

/**
 * A local OTLP/HTTP trace receiver for `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`: accepts
 * `POST /v1/traces`, keeps every span it is sent, answers 200 with an empty partial success
 * (or, once told to `refuse`, 400 to every export, which an exporter does not retry).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private refusing = false;

  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const holder: { receiver?: OtlpReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        if (holder.receiver!.refusing) {
          res.writeHead(400, { 'content-type': 'application/json' }).end('{}');
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequestJson;
        for (const resourceSpans of body.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scopeSpans of resourceSpans.scopeSpans ?? [])
            for (const span of scopeSpans.spans ?? [])
              holder.receiver!.spans.push({
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ? span.parentSpanId : null,
                name: span.name,
                kind: span.kind,
                scope: scopeSpans.scope?.name ?? '',
                attributes: attributesOf(span.attributes),
                resource,
              });
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    holder.receiver = new OtlpReceiver(server, `http://127.0.0.1:${port}`);
    return holder.receiver;
  }

  /** From now on every export is answered 400 and its spans are not kept. */
  refuse(): void {
    this.refusing = true;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  /** The environment that makes a process export its traces here, quickly. */
  env(): Record<string, string> {
    return {
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: this.origin,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
