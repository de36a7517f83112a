import type { Request, Response } from 'express';
import type { Deps, ListWebhookDeliveries, RedeliverWebhook } from '@pis/domain';
import { toDeliveryListCommand, toDeliveryListResponse, type ContractValidator } from '@pis/contract';
import { accepted, endpoint, param, respond, type Reply } from './endpoint';

/**
 * The webhook delivery log and its redeliver, for a surface that finds the location its own
 * way: the provider's key, or the operator's path.
 */
export function deliveryLogHandlers(
  deps: Deps,
  validator: ContractValidator,
  useCases: { list: ListWebhookDeliveries; redeliver: RedeliverWebhook },
  locationOf: (req: Request, res: Response) => string,
) {
  return {
    list: endpoint(async (req, res): Promise<Reply> => {
      const query = accepted(validator.deliveryListQuery(req.query));
      if (!query.ok) return query;
      const command = accepted(toDeliveryListCommand(query.value));
      if (!command.ok) return command;
      return respond(
        useCases.list(deps, { locationId: locationOf(req, res), ...command.value }),
        200,
        toDeliveryListResponse,
      );
    }),
    redeliver: endpoint(async (req, res) =>
      respond(
        useCases.redeliver(deps, { locationId: locationOf(req, res), deliveryId: param(req, 'deliveryId') }),
        202,
        (v) => v,
      ),
    ),
  };
}
