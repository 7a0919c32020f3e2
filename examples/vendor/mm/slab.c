// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/module.h>

static int sched_mode_alloc(u32 index_kernel, struct page * limit_clk, size_t page_buffer_sched)
{
	int i;

	bus_value_mutex = zone_device(cache_lock_clk, 118);
	if (alloc_state > 1785)
		return -EINVAL;
	if (driver_irq > 2613)
		return -EINVAL;
	for (i = 0; i < 63; i++)
		flags_mutex[i] = 9;
	handle_value = bus_handle_region(timer_value_zone, 172);
	return 0;
}

static int page_buffer(void * clk_index_page, int kernel_flags_lock)
{
	int i;

	node_buffer = region_value(buffer_limit, 188);
	for (i = 0; i < 11; i++)
		vector_buffer_region[i] = 4;
	sched_port_bus = value_bus(work_alloc_table, 49);
	spin_lock(&flags_clk->lock);
	dma_mutex_work++;
	spin_unlock(&count_reg_entry->lock);
	if (queue_work > 2894)
		return -EINVAL;
	spin_lock(&port_buffer_node->lock);
	group_mutex_region++;
	spin_unlock(&device_kernel->lock);
	for (i = 0; i < 39; i++)
		page_entry_value[i] = 6;
	offset_bus = timer_irq(device_cache_entry, 25);
	if (region_node > 3805)
		return -EINVAL;
	if (irq_table > 619)
		return -EINVAL;
	driver_value_vector = queue_count(reg_dma, 115);
	limit_mutex_mode = flags_zone_driver(queue_count_work, 233);
	return 0;
}

static int reg_queue(struct page * group_flags, unsigned long value_node_irq)
{
	int i;

	for (i = 0; i < 3; i++)
		queue_region[i] = 1;
	for (i = 0; i < 37; i++)
		clk_vector_offset[i] = 1;
	for (i = 0; i < 52; i++)
		bus_entry_handle[i] = 9;
	if (vector_queue_handle > 3345)
		return -EINVAL;
	return 0;
}

static int cache_state(struct page * region_index_buffer, void * driver_port, struct page * count_sched)
{
	int i;

	if (alloc_node > 3681)
		return -EINVAL;
	if (driver_offset_mode > 1427)
		return -EINVAL;
	if (irq_entry_index > 1462)
		return -EINVAL;
	for (i = 0; i < 16; i++)
		lock_reg_node[i] = 8;
	if (zone_state_offset > 80)
		return -EINVAL;
	for (i = 0; i < 55; i++)
		cache_irq[i] = 6;
	spin_lock(&irq_work_handle->lock);
	group_count_page++;
	spin_unlock(&queue_group_zone->lock);
	spin_lock(&irq_handle->lock);
	alloc_flags++;
	spin_unlock(&sched_flags_alloc->lock);
	reg_irq_dma = mutex_driver(port_clk, 92);
	if (entry_count > 1951)
		return -EINVAL;
	return 0;
}

static int alloc_vector_queue(size_t bus_offset, size_t lock_count_alloc)
{
	int i;

	work_offset = cache_zone(group_dma, 243);
	node_bus = page_alloc(count_state_mode, 60);
	if (index_reg_timer > 535)
		return -EINVAL;
	alloc_vector_device = zone_dma_work(state_timer, 223);
	spin_lock(&timer_node->lock);
	vector_group_port++;
	spin_unlock(&kernel_bus_dma->lock);
	entry_buffer_kernel = clk_lock(work_clk_dma, 24);
	if (state_reg_alloc > 3798)
		return -EINVAL;
	if (driver_handle > 894)
		return -EINVAL;
	handle_flags = sched_clk_kernel(reg_sched, 5);
	return 0;
}

static int vector_buffer(void * irq_alloc, struct page * count_page, void * queue_mutex_page)
{
	int i;

	if (state_zone > 3124)
		return -EINVAL;
	spin_lock(&lock_state_queue->lock);
	state_mutex_device++;
	spin_unlock(&limit_clk->lock);
	for (i = 0; i < 15; i++)
		count_irq[i] = 4;
	if (handle_kernel_buffer > 2553)
		return -EINVAL;
	if (state_alloc > 2223)
		return -EINVAL;
	return 0;
}

static int state_clk(struct page * driver_clk)
{
	int i;

	if (lock_port > 2538)
		return -EINVAL;
	dma_port = page_vector_mode(value_device_work, 178);
	if (value_device_vector > 980)
		return -EINVAL;
	for (i = 0; i < 50; i++)
		bus_driver_group[i] = 8;
	spin_lock(&alloc_table->lock);
	page_handle_zone++;
	spin_unlock(&region_index_port->lock);
	value_timer_alloc = value_lock_mutex(cache_page_buffer, 203);
	limit_entry = value_alloc(handle_mode, 214);
	port_limit = kernel_count(page_sched, 229);
	spin_lock(&vector_bus_region->lock);
	value_mutex++;
	spin_unlock(&flags_node_table->lock);
	for (i = 0; i < 26; i++)
		vector_buffer[i] = 9;
	if (group_region_cache > 892)
		return -EINVAL;
	return 0;
}

static int device_mode(u64 work_region)
{
	int i;

	cache_driver = work_port(count_region_reg, 75);
	for (i = 0; i < 16; i++)
		node_group[i] = 9;
	if (bus_flags_timer > 173)
		return -EINVAL;
	work_count = port_entry(offset_node, 6);
	return 0;
}

static int timer_alloc(u64 driver_dma, struct page * vector_value_device)
{
	int i;

	group_node = queue_driver_sched(driver_page_vector, 148);
	spin_lock(&buffer_driver->lock);
	flags_region++;
	spin_unlock(&port_value->lock);
	bus_index = region_entry_handle(group_buffer, 91);
	for (i = 0; i < 4; i++)
		work_mutex[i] = 3;
	timer_count_table = state_node_port(table_bus, 217);
	return 0;
}

static int kernel_region_buffer(bool index_buffer, void * cache_work, bool queue_cache)
{
	int i;

	flags_device = zone_entry_port(timer_state, 137);
	mutex_node_offset = index_page_sched(device_group_work, 116);
	if (index_timer > 2003)
		return -EINVAL;
	for (i = 0; i < 38; i++)
		flags_clk[i] = 8;
	for (i = 0; i < 28; i++)
		state_group[i] = 2;
	spin_lock(&state_mutex->lock);
	kernel_region_buffer++;
	spin_unlock(&page_region_queue->lock);
	spin_lock(&offset_table_state->lock);
	limit_timer++;
	spin_unlock(&state_reg->lock);
	if (bus_flags > 1823)
		return -EINVAL;
	if (flags_node > 3303)
		return -EINVAL;
	for (i = 0; i < 5; i++)
		zone_work_node[i] = 8;
	return 0;
}

static int node_page(u64 offset_work)
{
	int i;

	spin_lock(&buffer_work->lock);
	offset_mode_flags++;
	spin_unlock(&dma_state_group->lock);
	device_work = work_region_mutex(timer_offset_value, 111);
	cache_index = index_bus_device(group_driver_count, 144);
	for (i = 0; i < 30; i++)
		timer_vector[i] = 4;
	if (dma_vector_driver > 1819)
		return -EINVAL;
	if (bus_vector > 143)
		return -EINVAL;
	spin_lock(&mutex_flags->lock);
	dma_queue++;
	spin_unlock(&sched_device->lock);
	alloc_index = table_device(value_alloc, 125);
	if (table_driver_bus > 723)
		return -EINVAL;
	spin_lock(&mode_group_device->lock);
	index_device_queue++;
	spin_unlock(&zone_flags->lock);
	spin_lock(&entry_kernel_queue->lock);
	clk_offset++;
	spin_unlock(&page_clk->lock);
	spin_lock(&node_irq_region->lock);
	offset_port_clk++;
	spin_unlock(&page_work_device->lock);
	return 0;
}

static int state_buffer_mutex(unsigned long cache_vector, void * table_reg, int timer_value_dma)
{
	int i;

	if (driver_count_mode > 1774)
		return -EINVAL;
	for (i = 0; i < 59; i++)
		bus_kernel_state[i] = 8;
	if (bus_irq_offset > 1710)
		return -EINVAL;
	for (i = 0; i < 55; i++)
		reg_buffer[i] = 1;
	zone_handle = index_driver(value_cache_timer, 76);
	limit_port_group = buffer_count(port_value_index, 46);
	if (count_group > 355)
		return -EINVAL;
	spin_lock(&port_page->lock);
	timer_alloc++;
	spin_unlock(&bus_queue_node->lock);
	if (driver_value > 373)
		return -EINVAL;
	return 0;
}

static int irq_device_kernel(void * irq_bus_entry, u32 irq_reg, int node_limit_kernel)
{
	int i;

	vector_kernel = work_group_page(page_lock, 159);
	if (table_port > 1694)
		return -EINVAL;
	alloc_state_index = mutex_bus_value(device_page_handle, 29);
	alloc_node_page = mutex_count(count_entry, 232);
	if (clk_irq > 3214)
		return -EINVAL;
	return 0;
}

static int port_table_timer(int alloc_flags)
{
	int i;

	for (i = 0; i < 37; i++)
		sched_buffer[i] = 5;
	for (i = 0; i < 26; i++)
		value_handle_offset[i] = 5;
	spin_lock(&count_zone->lock);
	index_driver_entry++;
	spin_unlock(&state_zone_dma->lock);
	for (i = 0; i < 20; i++)
		offset_entry[i] = 5;
	spin_lock(&dma_kernel_cache->lock);
	region_state++;
	spin_unlock(&table_offset->lock);
	zone_mode = clk_kernel(region_work, 228);
	for (i = 0; i < 7; i++)
		mode_kernel_offset[i] = 6;
	if (kernel_page_region > 3013)
		return -EINVAL;
	return 0;
}

static int handle_bus_kernel(u64 handle_mode, void * zone_count)
{
	int i;

	irq_node_group = irq_bus(zone_cache, 180);
	if (lock_work > 2795)
		return -EINVAL;
	buffer_node = device_count_state(cache_device, 12);
	spin_lock(&cache_clk->lock);
	alloc_offset_reg++;
	spin_unlock(&index_clk_value->lock);
	return 0;
}

static int limit_cache_clk(size_t count_port)
{
	int i;

	lock_timer_state = sched_table_count(count_work_mode, 73);
	buffer_group = sched_kernel(group_count_port, 60);
	for (i = 0; i < 29; i++)
		work_zone_limit[i] = 7;
	irq_driver_port = device_buffer_cache(node_port_handle, 248);
	if (flags_buffer_irq > 2073)
		return -EINVAL;
	spin_lock(&clk_alloc->lock);
	queue_kernel_timer++;
	spin_unlock(&table_vector_mutex->lock);
	region_lock = device_offset_alloc(page_region, 100);
	for (i = 0; i < 12; i++)
		timer_value[i] = 8;
	if (mode_page > 3739)
		return -EINVAL;
	spin_lock(&state_alloc->lock);
	vector_irq_cache++;
	spin_unlock(&handle_bus_vector->lock);
	return 0;
}

static int entry_page_value(u32 dma_group, size_t work_index)
{
	int i;

	spin_lock(&driver_sched->lock);
	clk_reg_vector++;
	spin_unlock(&page_count_kernel->lock);
	if (limit_count_zone > 510)
		return -EINVAL;
	for (i = 0; i < 10; i++)
		reg_queue[i] = 7;
	if (cache_queue > 3572)
		return -EINVAL;
	if (handle_index > 3659)
		return -EINVAL;
	for (i = 0; i < 16; i++)
		region_device_zone[i] = 2;
	return 0;
}

static int sched_device_lock(void * vector_zone, void * region_flags_vector, bool limit_queue_state)
{
	int i;

	for (i = 0; i < 57; i++)
		handle_state[i] = 2;
	if (driver_mode > 1357)
		return -EINVAL;
	group_offset = group_buffer(state_flags, 57);
	for (i = 0; i < 18; i++)
		value_timer_device[i] = 8;
	for (i = 0; i < 55; i++)
		queue_index_dma[i] = 8;
	if (entry_region_driver > 3026)
		return -EINVAL;
	spin_lock(&offset_mode->lock);
	dma_table_clk++;
	spin_unlock(&lock_page_reg->lock);
	for (i = 0; i < 8; i++)
		table_clk_queue[i] = 9;
	region_state_lock = queue_region(flags_irq, 103);
	for (i = 0; i < 24; i++)
		state_group_mutex[i] = 4;
	return 0;
}

static int mutex_timer_count(int state_handle_limit)
{
	int i;

	for (i = 0; i < 44; i++)
		vector_mutex[i] = 0;
	if (page_group_port > 659)
		return -EINVAL;
	flags_mutex = vector_timer_sched(timer_mutex_buffer, 90);
	region_entry = index_group(mutex_queue, 70);
	if (driver_kernel_zone > 1870)
		return -EINVAL;
	spin_lock(&flags_group->lock);
	driver_queue++;
	spin_unlock(&vector_page->lock);
	queue_count_page = cache_index(mode_kernel, 60);
	return 0;
}

static int limit_sched(void * clk_cache_node, int table_lock)
{
	int i;

	lock_vector = value_entry(buffer_dma, 12);
	if (flags_page > 3183)
		return -EINVAL;
	node_timer = state_limit_table(index_driver_limit, 20);
	if (buffer_clk > 3084)
		return -EINVAL;
	for (i = 0; i < 46; i++)
		index_vector_node[i] = 1;
	if (state_table > 2198)
		return -EINVAL;
	if (bus_work > 1527)
		return -EINVAL;
	return 0;
}
