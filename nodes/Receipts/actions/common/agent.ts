import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { runsAsAiTool } from '../../../shared/agent';
import {
	identityMarks,
	receiptIdentity,
	type IdentityMark,
} from '../../../shared/sri/receiptIdentity';
import type { XmlElement } from '../../../shared/xml';

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
	throw refusal(
		this,
		i,
		which === undefined
			? `An AI agent may not ${what}: its environment (ambiente) is not known, and only test receipts (ambiente 1) are allowed`
			: `An AI agent may not ${what}: it is in the production environment (ambiente ${which}), and only test receipts (ambiente 1) are allowed`,
	);
}

function refusal(context: IExecuteFunctions, i: number, message: string): NodeOperationError {
	const error = new NodeOperationError(context.getNode(), message, {
		itemIndex: i,
		description:
			'This node runs as an AI agent\'s tool, and its "Allow Production From an AI Agent" switch is off: production receipts are real tax documents. Nothing was signed or sent to the tax authority. ' +
			"Issue production receipts from a workflow, or turn the switch on in this tool's settings if the agent may do so.",
	});
	// n8n swaps a message that contains a system error code (EACCES, EPERM…) for a generic one, and the names of
	// a receipt's elements may (claveAcceso contains EACCES): keep ours.
	error.message = message;
	return error;
}

/**
 * The environment of a receipt XML: what the SRI reads (`infoTributaria/ambiente`, and the environment digit,
 * position 24, of `infoTributaria/claveAcceso` when the receipt carries its key — the one rule of which element
 * says it: shared/sri/receiptIdentity.ts), and nothing anywhere else that any other reader could take for
 * production (another `ambiente` or access key, under any prefix, in any element, attribute, comment or CDATA
 * section). Either the environment, or why it cannot be told: no `ambiente`, more than one, a value other than
 * 1 or 2, a key that is not 49 digits, a key that says another environment, another mark that is not a test one.
 */
function environmentOfReceipt(
	root: XmlElement,
	xml: string,
): { environment: '1' | '2' } | { unknown: string } {
	const identity = receiptIdentity(root);
	const cannot = 'its environment cannot be told';
	const { ambiente } = identity;
	if (!ambiente) return { unknown: 'its environment (ambiente) is not known' };
	if ('problem' in ambiente)
		return {
			unknown: ambiente.problem.startsWith('the XML has')
				? `its environment (ambiente) is not known: ${ambiente.problem}`
				: `${cannot}: ${ambiente.problem}`,
		};
	const environment = ambiente.value;
	if (environment !== '1' && environment !== '2')
		return {
			unknown: `${cannot}: <ambiente> holds ${JSON.stringify(environment.slice(0, 20))}, which is neither 1 (test) nor 2 (production)`,
		};
	// No message below names the key's element: n8n replaces an error message that contains "EACCES"
	// (n8n-workflow, NodeError's common errors), and "claveAcceso" does.
	const key = identity.claveAcceso;
	if (key && 'problem' in key) return { unknown: `${cannot}: ${key.problem}` };
	if (key) {
		if (!/^\d{49}$/.test(key.value)) {
			return {
				unknown: `${cannot}: its access key is not 49 digits, so its environment digit cannot be read`,
			};
		}
		// Position 24 of the key (SRI, Ficha técnica, clave de acceso: tipo de ambiente).
		if (key.value[23] !== environment) {
			return {
				unknown: `${cannot}: <ambiente> says ${environment} but its access key says ${key.value[23]}`,
			};
		}
	}
	if (environment === '2') return { environment };
	// A test receipt by the SRI's reading: nothing else in it may say otherwise to another reader.
	const other = identityMarks(root, identity, xml).find((mark) =>
		mark.what === 'ambiente' ? mark.value !== '1' : !/^\d{23}1\d{25}$/.test(mark.value),
	);
	if (other)
		return {
			unknown: `${cannot}: besides <infoTributaria>'s, it has ${mark(other)}, and a reader that takes that one could record a production receipt`,
		};
	return { environment };
}

/** A mark in words: `an <ambiente> in <infoTributaria/c> saying "2"`, `an access key in a comment saying "…"`. */
function mark(other: IdentityMark): string {
	const what = other.what === 'ambiente' ? 'an <ambiente>' : 'an access key';
	const where = other.where.startsWith('a ') ? `in ${other.where}` : `in <${other.where}>`;
	return `${what} ${where} saying ${JSON.stringify(other.value.slice(0, 49))}`;
}

/**
 * Refuses item `i` (Issue From XML) when the node runs as an agent's tool without the switch and the receipt
 * XML is not unambiguously a test receipt (`environmentOfReceipt`). `receipt`: the XML as sent and as parsed.
 */
export function refuseProductionXmlForAgent(
	this: IExecuteFunctions,
	i: number,
	receipt: { xml: string; root: XmlElement },
	what: string,
): void {
	if (productionAllowed.call(this, i)) return;
	const read = environmentOfReceipt(receipt.root, receipt.xml);
	if ('environment' in read) {
		refuseProductionForAgent.call(this, i, [read.environment], what);
		return;
	}
	throw refusal(
		this,
		i,
		`An AI agent may not ${what}: ${read.unknown}, and only test receipts (ambiente 1) are allowed`,
	);
}
