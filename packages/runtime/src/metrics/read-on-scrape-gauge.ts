import { Gauge, type MetricObjectWithValues, type MetricValue, type Registry } from 'prom-client';

/**
 * An unlabelled gauge read when scraped, whose reading may fail: it then answers no sample
 * at all (unknown), where prom-client's own unlabelled gauge would answer 0, a value an
 * alert would believe.
 */
export class ReadOnScrapeGauge extends Gauge {
  constructor(
    config: { name: string; help: string; registry: Registry; aggregator: 'max' | 'min' | 'sum' },
    private readonly read: () => Promise<number | null>,
  ) {
    super({
      name: config.name,
      help: config.help,
      registers: [config.registry],
      aggregator: config.aggregator,
    });
  }

  override async get(): Promise<MetricObjectWithValues<MetricValue<string>>> {
    const value = await this.read();
    if (value !== null) this.set(value);
    const metric = await super.get();
    return value === null ? { ...metric, values: [] } : metric;
  }
}
