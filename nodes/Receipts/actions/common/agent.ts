import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { runsAsAiTool } from '../../../shared/agent';
import { splitAccessKey } from '../../../shared/sri/accessKey';
import { xmlLeaves } from './xml';

/**
 * Production receipts and AI agents. A receipt issued in the production environment (`ambiente` 2) is a
 * real tax document the tax authority records; an agent decides from a conversation, and a conversation
 * can be mistaken or manipulated. So when this node runs as an agent's tool, every operation that issues,
 * reissues or authorizes refuses a production receipt, before anything is sent, unless the person who
 * configured the tool turned on "Allow Production From an AI Agent". The test environment (1) stays open.
 */

/**
 * The switch, shown only in the tool's settings (n8n's `@tool` display option): off by default, on the
 * form of every issuing operation, where the person who adds the tool to an agent sees it.
 */
export const allowProductionFromAgentField: INodeProperties = {
	displayName: 'Allow Production From an AI Agent',
	name: 'allowProductionFromAgent',
	type: 'boolean',
	default: false,
	displayOptions: { show: { '@tool': [true] } },
	description:
		'Whether an AI agent using this tool may issue, reissue or authorize receipts in the production environment (ambiente 2), which the tax authority records as real tax documents. Off: the agent works in the test environment (ambiente 1) only.',
};

/** True when item `i` may issue or authorize in production: not run by an agent, or the switch is on. */
export function productionAllowed(this: IExecuteFunctions, i: number): boolean {
	return (
		!runsAsAiTool.call(this) ||
		this.getNodeParameter(allowProductionFromAgentField.name, i, false) === true
	);
}

/**
 * Refuses item `i` when the node runs as an agent's tool without the switch and the receipt is not known to
 * be in the test environment: `environments` are what the receipt says of itself (its `ambiente`, the
 * environment digit of its access key); none, or any other than 1, is refused. `what`: "issue this
 * retention", "authorize receipt abc".
 */
export function refuseProductionForAgent(
	this: IExecuteFunctions,
	i: number,
	environments: unknown[],
	what: string,
): void {
	if (productionAllowed.call(this, i)) return;
	const known = environments.filter((e) => e !== undefined && e !== null && e !== '').map(String);
	if (known.length && known.every((e) => e === '1')) return;
	const which = known.find((e) => e !== '1');
	throw new NodeOperationError(
		this.getNode(),
		which === undefined
			? `An AI agent may not ${what}: its environment (ambiente) is not known, and only test receipts (ambiente 1) are allowed`
			: `An AI agent may not ${what}: it is in the production environment (ambiente ${which}), and only test receipts (ambiente 1) are allowed`,
		{
			itemIndex: i,
			description:
				'This node runs as an AI agent\'s tool, and its "Allow Production From an AI Agent" switch is off: production receipts are real tax documents. Nothing was signed or sent to the tax authority. ' +
				"Issue production receipts from a workflow, or turn the switch on in this tool's settings if the agent may do so.",
		},
	);
}

/** Every environment a receipt XML states: its `<ambiente>` elements and the environment digit of its `<claveAcceso>`. */
export function environmentsOfXml(xml: string): string[] {
	// A malformed key says nothing (the service refuses it); a well-formed one carries its environment.
	const keys = xmlLeaves(xml, 'claveAcceso').filter((key) => /^\d{49}$/.test(key));
	return [...xmlLeaves(xml, 'ambiente'), ...keys.map((key) => splitAccessKey(key).environment)];
}
