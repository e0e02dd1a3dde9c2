import type { INodeProperties } from 'n8n-workflow';
import { parallelWritesOption } from '../../../shared/router';
import { allowProductionFromAgentField } from './agent';
import { requestTimeoutOption, simplifyField } from './output';
import { parallelChecksOption, pollIntervalOption, waitFields } from './wait';

/**
 * What every operation that signs a receipt shows after the receipt (Issue, Issue From XML, Reissue, Document →
 * Authorize): the AI agent's production switch (agent.ts), Wait for Final State (wait.ts), Simplify (output.ts)
 * and its Options.
 */

/**
 * Options → Parallel Requests of every operation that signs: how many receipts are in flight at once. Default 5:
 * the service publishes no rate limit, a 429 is waited out (Retry-After) and re-sent because it was not
 * processed, and nothing that may have been processed is ever re-sent, so sending several at once changes how
 * long a batch takes, not what it creates.
 */
const parallelIssuingOption: INodeProperties = {
	...parallelWritesOption,
	description:
		'How many receipts are sent to the service at the same time. Every item is checked before the first is sent; a receipt whose answer was lost is never sent again; the output keeps the input order. 1 sends one after another.',
};

/** The fields after the receipt; `extraOptions`: options of this operation only (Issue: Access Key), sorted in. */
export const signingFields = (extraOptions: INodeProperties[] = []): INodeProperties[] => [
	allowProductionFromAgentField,
	...waitFields,
	simplifyField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			...extraOptions,
			pollIntervalOption,
			parallelChecksOption,
			parallelIssuingOption,
			requestTimeoutOption,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];
