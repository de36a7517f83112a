import { createServer } from 'node:http';
import { Webhook } from 'standardwebhooks';

/**
 * What a provider does with our webhooks, in full: verify the Standard Webhooks signature
 * with the endpoint's secret, answer 2xx, deduplicate by `webhook-id`, order by
 * `data.locationEventSequence`. Usage: WEBHOOK_SECRET=whsec_... PORT=4000 pnpm receiver
 */
const webhook = new Webhook(process.env.WEBHOOK_SECRET ?? '');
const seen = new Set<string>();

createServer((req, res) => {
  if (req.method !== 'POST') return void res.writeHead(200).end('ready\n');
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    try {
      const event = webhook.verify(body, req.headers as Record<string, string>) as {
        type: string;
        data: object;
      };
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id)) console.log(`verified ${event.type} ${JSON.stringify(event.data)}`);
      seen.add(id);
      res.writeHead(204).end();
    } catch {
      console.log('refused a delivery whose signature does not verify');
      res.writeHead(400).end();
    }
  });
}).listen(Number(process.env.PORT ?? 4000), '127.0.0.1');
