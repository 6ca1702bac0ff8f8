// SPDX-License-Identifier: GPL-2.0-only
/* Generated once per kind (python3 -c 'import uuid; print(uuid.uuid4().hex)') and never changed:
 * operators filter on them. A new kind gets a new ID here and an entry in catalog/memcgd.catalog. */
#include <stddef.h>
#include <string.h>

#include "log-ids.h"
#include "log.h"

static const struct {
	const char *event;
	const char *id;
} message_ids[] = {
	{ "attached", "71fd6b722a5d48428b9a805d3caab0c5" },
	{ "took-over", "9fe2aeac2bd54fc792dd9d06bfe559ec" },
	{ "measuring", "eafefdca7add42f5973e0f1436f756ea" },
	{ "detached", "ecb0dc6765694a7ca94cd1dbba5cceab" },
	{ "attach-failed", "bf4416542a274672a02fe642f0aec890" },
	{ "active", "86704bc07f594058b54bb736ed171065" },
	{ "busy", "b1d56f488b7440fc98e0f0e271403d13" },
	{ "holding", "5a41c8397ca64f8fa98cc2c2e172be44" },
	{ "idle", "f75cc8065f4c4ba6bbfa17a970bcf114" },
	{ "calm", "d00859746c714463bf7c903479731929" },
	{ "escalate-reclaim", "1bd2a67ccf1f4237b3f17d919fe49d2d" },
	{ "escalate-delay", "5df3ab4c3b2343d9a3aea1074755e6b2" },
	{ "throttle", "2cd59a4bbad44b948cdcda381a9c87f2" },
	{ "would-throttle", "1547ed745f5f4a1591f94766694a8ef3" },
	{ "unthrottle", "7803e874969c4a2ba28fdc9ea275cfe5" },
	{ "guard-tripped", "18bd0722cd094482945454f21a015722" },
	{ "guard-cleared", "9214fbe90f3d4d3a8f5708d33c8fd713" },
	{ "protect-suspended", "7f252fcc178342b09d5b4751aaaf553b" },
	{ "protect-resumed", "4eed042062c745e0b8a3bc1c34bf3bde" },
	{ "reloaded", "1317c58016704d23aaec8b2eea7b7ddb" },
	{ "reload-failed", "7a16179597024787a29ce5388625f3ae" },
	{ "removed", "a16e0aa54e9f4ef5b89e8c4822dd9409" },
	{ "skipped", "50a9f771618848d79460241992cd5efc" },
	{ "config-problem", "1c3b628bb995471891be555448e86ac1" },
	{ "dry-run", "6a3fc90306bc4a82bfb88e0f42be3ad6" },
	{ "bus-lost", "090ae704b1d644318bdf785f29f21f9e" },
	{ "bus-connected", "4b8d4d113f9541c59b693209e9f1e0f0" },
	{ "slice-of-full", "9b925cebbe9c4b57b12f5093ea013318" },
	{ "numa-unsupported", "76afd65e84144f9fa523d6023443d880" },
	{ "reclaim-denied", "ab3a154576b5432eaa0b3ee1feb8670a" },
};

const char *log_message_id(const char *event)
{
	for (size_t i = 0; event && i < sizeof(message_ids) / sizeof(message_ids[0]); i++)
		if (strcmp(message_ids[i].event, event) == 0)
			return message_ids[i].id;
	return MEMCGD_MESSAGE_ID;
}
