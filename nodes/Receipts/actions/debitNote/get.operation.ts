import { getOperation } from '../common/operations';

/** GET /debit-notes/{id} (the service's public documentation, Notas de débito). */
export const { kind, description, execute } = getOperation(
	'debitNote',
	'/debit-notes',
	'debit note',
);
