#!/usr/bin/perl
# churn.pl CGROUP_ROOT PARENT COUNT DATA_DIR IDS_FILE V2(0|1)
# Creates COUNT cgroups PARENT/c<i%4>/n<i> one after the other; each gets
# a soft limit, page cache charged by reading its own uncached 64 KiB file
# from inside it, and is removed.  One process, no forks, so that 1,000
# rounds take seconds even under TCG.  Every 250 rounds it asks the module
# for a snapshot.
use strict;
use warnings;
my ($root, $parent, $count, $data, $ids_file, $v2) = @ARGV;
sub put {
	my ($path, $value) = @_;
	open(my $fh, '>', $path) or die "open $path: $!";
	syswrite($fh, $value) // die "write '$value' to $path: $!";
	close($fh);
}
open(my $ids, '>', $ids_file) or die "open $ids_file: $!";
for my $i (1 .. $count) {
	my $rel = "$parent/c" . ($i % 4) . "/n$i";
	my $dir = "$root/$rel";
	mkdir($dir) or die "mkdir $dir: $!";
	print $ids ((stat($dir))[1], "\n");
	my $limit = ($i % 3) * 512 * 1024;
	if ($v2) {
		put('/proc/memcg_softlimit/limits', "set /$rel $limit");
	} else {
		put("$dir/memory.soft_limit_in_bytes", $limit);
	}
	put("$dir/cgroup.procs", $$);
	open(my $fh, '<', "$data/f" . ($i % 1000)) or die "open data: $!";
	my $buf;
	1 while sysread($fh, $buf, 65536);
	close($fh);
	put("$root/cgroup.procs", $$);
	rmdir($dir) or die "rmdir $dir: $!";
	put('/proc/memcg_softlimit/snapshot', '1') if $i % 250 == 0;
}
close($ids);
print "churned $count\n";
