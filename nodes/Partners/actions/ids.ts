import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { runsAsAiTool } from '../../shared/agent';
import { segmentProblem } from '../../shared/path';
import type { Checker } from '../../shared/validate';

/**
 * The most IDs one call may change when an AI agent runs the node as its tool (Client → Suspend / Reactivate,
 * Plan → Delete). An agent acts on a conversation, which can be mistaken or manipulated; a person asking an
 * agent names one client or plan, or a few. Five covers that and keeps the harm of a wrong call small (a
 * suspension reaches the clients with its message); changing more at once is a workflow's job, where a
 * person chose the list. Not a limit of the service: the node without an agent takes any number.
 */
const AGENT_MAX_IDS = 5;

/**
 * Reads a resource locator's value; an empty one, or one that cannot be part of an address (the rule of
 * shared/path.ts: `..`, `/`, `?`, `#`, `%`, spaces), stops the item before any request.
 */
export function requireId(this: IExecuteFunctions, parameter: string, i: number): string {
	const value = String(
		this.getNodeParameter(parameter, i, '', { extractValue: true }) ?? '',
	).trim();
	if (!value) {
		throw new NodeOperationError(this.getNode(), `${parameter}: is required`, {
			itemIndex: i,
			description: `Choose the ${parameter} from the list or enter its ID. Nothing was sent.`,
		});
	}
	const problem = segmentProblem(value);
	if (problem) {
		throw new NodeOperationError(this.getNode(), `${parameter}: ${problem}`, {
			itemIndex: i,
			description: `Choose the ${parameter} from the list or enter its ID as the service gave it. Nothing was sent.`,
		});
	}
	return value;
}

/**
 * The resource locator `parameter` of item `i`, checked as `requireId` checks it, its problem added to `check`
 * beside the item's other problems (a write's `validate`: every problem of the item in one error).
 */
export function idInto(
	this: IExecuteFunctions,
	check: Checker,
	parameter: string,
	i: number,
): string {
	const value = String(
		this.getNodeParameter(parameter, i, '', { extractValue: true }) ?? '',
	).trim();
	if (!value) check.fail(parameter, 'is required: choose it from the list or enter its ID');
	else {
		const problem = segmentProblem(value);
		if (problem) check.fail(parameter, problem);
	}
	return value;
}

/**
 * Reads a list of IDs given as a multi-select, a list from an expression, or comma-separated text.
 * `agentLimit`: the list changes what it names (suspend, reactivate, delete), so an AI agent may name at
 * most AGENT_MAX_IDS of them in one call.
 */
export function readIdList(
	this: IExecuteFunctions,
	parameter: string,
	i: number,
	opts: { agentLimit?: boolean } = {},
): string[] {
	const raw = this.getNodeParameter(parameter, i, []) as unknown;
	const list = (Array.isArray(raw) ? raw : String(raw ?? '').split(','))
		.map((v) => String(v).trim())
		.filter(Boolean);
	if (list.length === 0) {
		throw new NodeOperationError(this.getNode(), `${parameter}: choose at least one`, {
			itemIndex: i,
			description:
				'Pick from the list, or give the IDs as a list or comma-separated text. Nothing was sent.',
		});
	}
	const ids = [...new Set(list)];
	if (opts.agentLimit && ids.length > AGENT_MAX_IDS && runsAsAiTool.call(this)) {
		throw new NodeOperationError(
			this.getNode(),
			`${parameter}: an AI agent may change at most ${AGENT_MAX_IDS} per call, and this call names ${ids.length}`,
			{
				itemIndex: i,
				description: `This node runs as an AI agent's tool. Nothing was sent. Ask for at most ${AGENT_MAX_IDS} at a time, or make larger changes from a workflow, where a person chooses the list.`,
			},
		);
	}
	return ids;
}
