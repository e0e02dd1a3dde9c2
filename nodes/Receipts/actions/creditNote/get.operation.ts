import { getOperation } from '../common/operations';

/** GET /credit-notes/{id} (the service's public documentation, Notas de crédito). */
export const { kind, description, execute } = getOperation(
	'creditNote',
	'/credit-notes',
	'credit note',
);
