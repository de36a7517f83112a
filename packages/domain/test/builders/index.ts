export * from './instants';
export * from './reservation.builders';
export * from './location.builders';
export * from './order.builders';
export * from './floor-plan.builders';
export * from './unit.builders';
