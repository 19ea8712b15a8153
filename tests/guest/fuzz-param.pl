#!/usr/bin/perl
# fuzz-param.pl DIR COUNT SEED: COUNT rounds of values no parser of the
# module's parameters may accept, each one open/write(2)/close of
# DIR/priority_threshold (six values a round) plus a fixed list for the
# boolean DIR/enabled; prints "writes N", "accepted N" and the first
# accepted write, if any.  In perl rather than a shell loop: under TCG a
# fork per value cost a minute.
use strict;
use warnings;
my ($dir, $count, $seed) = @ARGV;
srand($seed);
my ($writes, $accepted, $first) = (0, 0, '');
sub try_write {
	my ($file, $value) = @_;
	open(my $fh, '>', "$dir/$file") or die "open $dir/$file: $!";
	$writes++;
	if (defined syswrite($fh, $value)) {
		$accepted++;
		$first = "$file=$value" if $accepted == 1;
	}
	close($fh);	# the store happened (or failed) in write(2)
}
for my $i (1 .. $count) {
	my $noise = join('', map { chr(1 + int(rand(255))) } 1 .. 8);
	$noise =~ s/\n//g;
	try_write('priority_threshold', $_)
		for (13 + $i, "-$i", "x$i", '12x', '1 2', $noise);
}
# kstrtobool() takes y/n/1/0/on/off by their first letters; these are not.
try_write('enabled', $_) for ('maybe', '2', '-', "\xe9", "\xc3\xa9");
print "writes $writes\naccepted $accepted\n";
print "first accepted: $first\n" if $accepted;
