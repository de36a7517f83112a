import type { components, paths } from '@pis/sdk/src/generated/openapi';

/** The wire types of the backoffice API, generated from the OpenAPI document. */
type Schemas = components['schemas'];

export type BackofficePaths = paths;
export type WorkingPlan = Schemas['WorkingPlan'];
export type WorkingRoom = WorkingPlan['rooms'][number];
export type WorkingTable = Schemas['WorkingTable'];
export type PublishedFloorPlan = Schemas['PublishedFloorPlan'];
export type PublishedTable = Schemas['PublishedTable'];
export type PublishPreview = Schemas['PublishPreview'];
export type FloorPlanChanges = Schemas['FloorPlanChanges'];
export type Delivery = Schemas['Delivery'];
export type DeliveryStatus = Delivery['status'];
export type DeliveryPage = Schemas['DeliveryListResponse'];
export type ErrorEnvelope = Schemas['ErrorEnvelope'];
export type Order = Schemas['Order'];
export type Location = Schemas['Location'];
export type LocationPage = Schemas['LocationListResponse'];
export type Provider = Schemas['Provider'];
export type ProviderPage = Schemas['ProviderListResponse'];
export type Connection = Schemas['Connection'];
