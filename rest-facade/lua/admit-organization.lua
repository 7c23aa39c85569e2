-- On a Redis Cluster the organization's window and counter (hash tag `{org id}`) and the key's
-- counters (`{key id}`) live in two slots, which one script cannot touch: this script admits for
-- the organization, count-key.lua counts for the key, both sent in the same tick (one round trip
-- still; the key's counts do not depend on the admission).
return admitCalls(KEYS[1], ARGV[1], ARGV[2], ARGV[3], KEYS[2], ARGV[4], ARGV[5])
